import { useParams } from 'wouter';
import { ArticleView, PostNotFound } from '../../features/blog/components/article-view';
import { findArticleBySlug } from '../../features/blog/find-article';
import { useDocumentTitle } from '../../lib/document-title';

export default function BlogPostPage() {
  const { slug = '' } = useParams<{ slug: string }>();
  const article = findArticleBySlug(slug);
  useDocumentTitle(
    article?.title ?? 'Post Not Found',
    article?.excerpt ?? "The blog post you're looking for doesn't exist.",
  );
  return article ? <ArticleView article={article} /> : <PostNotFound />;
}
