import { Page } from '../../components/ui/page';

export default function BlogPage() {
  return (
    <Page
      title="GPU Computing Insights"
      description="Articles on GPU computing, costs and running a GPU business."
    />
  );
}
