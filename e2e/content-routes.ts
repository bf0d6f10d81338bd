/** The pages of the content issue, with the heading and document title each must show. */
export const CONTENT_PAGES = [
  { path: '/blog', heading: 'GPU Computing Insights' },
  {
    path: '/blog/cut-gpu-costs-without-slowing-down',
    heading: 'How to Cut GPU Costs Without Slowing Down Your AI Work',
  },
  {
    path: '/blog/security-data-protection-distributed-computing',
    heading: 'Security and Data Protection in Distributed GPU Computing',
  },
  {
    path: '/blog/future-distributed-computing-vision',
    heading: 'The Future of Distributed Computing: Our Vision',
  },
  { path: '/blog/no-such-post', heading: 'Post Not Found' },
  { path: '/documentation', heading: 'Documentation' },
  { path: '/help-center', heading: 'Help Center' },
  { path: '/contact-us', heading: 'Contact Us' },
  { path: '/privacy-policy', heading: 'Privacy Policy' },
  { path: '/terms-of-service', heading: 'Terms of Service' },
  { path: '/cookie-policy', heading: 'Cookie Policy' },
  { path: '/api-reference', heading: 'API Reference' },
] as const;
