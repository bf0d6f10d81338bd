import { LIVE_CHAT_NOTICE } from '../../../shared/content/company';
import { Button } from '../ui/button';
import { toast } from '../ui/toast-store';

/** Start Live Chat: there is no live chat yet, so the toast says so and where to write instead. */
export function LiveChatButton() {
  return (
    <Button
      variant="outline"
      size="sm"
      className="w-fit"
      onClick={() => toast({ ...LIVE_CHAT_NOTICE })}
    >
      Start Live Chat
    </Button>
  );
}
