import { Page } from '../../components/ui/page';

export default function ProfilePage() {
  return <Page title="Profile" description="Your account details and activity." />;
}
