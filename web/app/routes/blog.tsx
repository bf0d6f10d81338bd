import { Page } from '../../components/ui/page';
import { ArticleCard, FeaturedArticle } from '../../features/blog/components/article-card';
import { splitFeatured } from '../../features/blog/find-article';
import { NewsletterSignup } from '../../features/newsletter/components/newsletter-signup';

export default function BlogPage() {
  const { featured, others } = splitFeatured();
  return (
    <Page
      title="GPU Computing Insights"
      description="Guides, stories and ideas on renting GPUs, cutting computing costs and earning from your hardware, from the RentGPU team."
    >
      <div className="mt-8 grid gap-10">
        {featured ? <FeaturedArticle article={featured} /> : null}
        <section aria-labelledby="latest-articles" className="grid gap-6">
          <h2 id="latest-articles" className="text-2xl font-bold">
            Latest Articles
          </h2>
          <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {others.map((article) => (
              <ArticleCard key={article.id} article={article} />
            ))}
          </div>
        </section>
        <NewsletterSignup source="blog" />
      </div>
    </Page>
  );
}
