import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { downloadAccountData } from '../api/export-account';

/** Download Account Data: everything we hold about the user, as a JSON file. */
export function DownloadDataButton({ userId }: { userId: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="outline"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadAccountData(userId);
          toast({
            title: 'Download Started',
            description: 'Your account data is being saved as JSON.',
          });
        } catch (error) {
          toastFailure('Download Failed', error, 'Could not export your data. Please try again.');
        } finally {
          setBusy(false);
        }
      }}
    >
      <Download className="h-4 w-4" aria-hidden />
      {busy ? 'Preparing...' : 'Download Account Data'}
    </Button>
  );
}
