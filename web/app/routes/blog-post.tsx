import { useParams } from 'wouter';
import { Page } from '../../components/ui/page';

export default function BlogPostPage() {
  const { slug } = useParams<{ slug: string }>();
  return <Page title="GPU Computing Insights" description={`Article: ${slug}`} />;
}
