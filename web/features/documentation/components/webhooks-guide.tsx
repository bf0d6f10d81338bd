import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { WEBHOOK_ROTATION_HOURS } from '../../../../shared/contracts/webhooks';
import { EVENT_RETENTION_DAYS, EVENT_TYPES } from '../../../../shared/event-names';
import { CodeBlock } from '../../../components/content/code-block';
import { linkClasses } from '../../../components/content/markup-view';
import { EVENT_TYPE_DESCRIPTIONS } from '../../../lib/event-types';
import { useFocusLinked } from '../../../lib/use-focus-linked';
import { DocSection } from './doc-parts';

const CURSOR_REQUEST = `GET /api/v1/events?after=evt_123&types=instance.*&subject=instance:42&limit=100&wait=20
Authorization: Bearer YOUR_API_KEY`;

const CURSOR_ANSWER = `{
  "data": [
    {
      "id": "evt_124",
      "type": "instance.stopped",
      "timestamp": "2026-12-01T10:15:00.000Z",
      "subject": { "kind": "instance", "id": "42", "seq": 5 },
      "data": {
        "instanceId": 42,
        "state": "stopped",
        "previousState": "stopping",
        "reason": "spend_cap",
        "charged": "3.200000"
      }
    }
  ],
  "nextCursor": "evt_124",
  "hasMore": false
}`;

const CLI = `rentgpu events list --type instance.* --limit 50
rentgpu events tail --type instance.ready --subject instance:42 --once
rentgpu webhooks create https://example.com/rentgpu --type instance.ready --type instance.stopped
rentgpu webhooks list
rentgpu webhooks test <id>
rentgpu webhooks deliveries <id> --status failed
rentgpu webhooks resend <id> <delivery-id>
rentgpu webhooks rotate <id>`;

const RECEIVER = `import { Webhook } from 'standardwebhooks';
const wh = new Webhook(process.env.RENTGPU_WEBHOOK_SECRET); // whsec_…
// in your handler, with the raw body as a string:
const event = wh.verify(rawBody, {
  'webhook-id': req.headers['webhook-id'],
  'webhook-timestamp': req.headers['webhook-timestamp'],
  'webhook-signature': req.headers['webhook-signature'],
});`;

const HEADERS: [string, string][] = [
  [
    'webhook-id',
    'The event’s id (evt_…): the same on every attempt and on “Send again”, so deduplicate by it.',
  ],
  [
    'webhook-timestamp',
    'When this attempt was sent, in Unix seconds; the package refuses one more than five minutes off.',
  ],
  [
    'webhook-signature',
    `v1, then the base64 HMAC-SHA256 of "id.timestamp.body" under your secret. For ${WEBHOOK_ROTATION_HOURS} hours after a rotation it holds two signatures, space-separated: one per secret.`,
  ],
];

/** A part of the guide: its text muted, its heading and code in the foreground colour. */
function GuideSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <DocSection
      id={id}
      title={title}
      className="grid min-w-0 gap-3 text-muted-foreground"
      headingClassName="text-xl font-semibold text-foreground"
    >
      {children}
    </DocSection>
  );
}

const code = 'font-mono text-sm text-foreground';

/**
 * Events and webhooks (docs/decisions/027): what an event is, reading them by cursor or the
 * CLI, and a webhook receiver. Beside the five tabs, at /documentation#webhooks.
 */
export function WebhooksGuide() {
  useFocusLinked('webhooks', true);
  return (
    <section
      id="webhooks"
      aria-labelledby="doc-webhooks"
      tabIndex={-1}
      className="grid min-w-0 gap-8 outline-none"
    >
      <div className="grid gap-2">
        <h2 id="doc-webhooks" className="text-2xl font-bold">
          Events and webhooks
        </h2>
        <p className="text-muted-foreground">
          Every change to your instances, credits and spend caps (and, for providers, to your hosts
          and earnings) is written as an event, in the same transaction as the change itself. Read
          them by cursor with the API or the CLI, or have them sent to your own URL, signed.
        </p>
      </div>

      <GuideSection id="doc-events" title="Events">
        <p>
          An event has an <code className={code}>id</code> (<code className={code}>evt_123</code>:
          the global order, and the cursor), a <code className={code}>type</code>, a{' '}
          <code className={code}>timestamp</code>, a <code className={code}>subject</code> (such as{' '}
          <code className={code}>instance:42</code>, with a <code className={code}>seq</code> of 1,
          2, 3… per subject: a gap means a missed event) and the <code className={code}>data</code>{' '}
          you need without a second call. Instance events carry the{' '}
          <code className={code}>state</code>, the <code className={code}>previousState</code>, the{' '}
          <code className={code}>reason</code> it stopped or ended and the cost so far (
          <code className={code}>charged</code>, in dollars). Wallet and earnings events carry the{' '}
          <code className={code}>amount</code>, the ledger kind (
          <code className={code}>ledgerKind</code>
          ), its <code className={code}>reference</code> and the{' '}
          <code className={code}>balance</code> after it. Events are kept {EVENT_RETENTION_DAYS}{' '}
          days.
        </p>
        <h4 className="font-semibold text-foreground">Event types</h4>
        <dl className="grid gap-x-6 gap-y-2 rounded-lg border border-border p-4 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
          {EVENT_TYPES.map((type) => (
            <div key={type} className="grid gap-0.5 sm:col-span-2 sm:grid-cols-subgrid">
              <dt className="font-mono text-sm break-all text-foreground">{type}</dt>
              <dd className="text-sm">{EVENT_TYPE_DESCRIPTIONS[type]}</dd>
            </div>
          ))}
        </dl>
      </GuideSection>

      <GuideSection id="doc-events-cursor" title="Read them by cursor">
        <p>
          Events come oldest first, newest last, after the event named in{' '}
          <code className={code}>after</code>. Pass the answer’s{' '}
          <code className={code}>nextCursor</code> as <code className={code}>after</code> next time:
          when nothing is new, the same cursor comes back; <code className={code}>hasMore</code>{' '}
          says more are there now. <code className={code}>types</code> takes event types or a
          subject’s every type (<code className={code}>instance.*</code>),{' '}
          <code className={code}>limit</code> 1 to 500, and <code className={code}>wait</code> (up
          to 30 seconds) holds the call until an event comes. It needs an API key with the read
          permission.
        </p>
        <CodeBlock label="Events request" code={CURSOR_REQUEST} />
        <CodeBlock label="Events answer" code={CURSOR_ANSWER} />
      </GuideSection>

      <GuideSection id="doc-events-cli" title="From the command line">
        <p>
          <code className={code}>rentgpu events tail</code> follows new events as they happen, one a
          line, until Ctrl-C; <code className={code}>rentgpu webhooks …</code> manages your
          endpoints.
        </p>
        <CodeBlock label="rentgpu events and webhooks commands" code={CLI} />
      </GuideSection>

      <GuideSection id="doc-webhooks-send" title="Webhooks">
        <p>
          Add an endpoint on the{' '}
          <Link href="/settings?tab=webhooks" className={linkClasses}>
            Webhooks tab of your settings
          </Link>
          , with <code className={code}>/api/v1/webhook-endpoints</code> or with the CLI: a URL and
          the event types it gets (or all). Its signing secret (
          <code className={code}>whsec_…</code>) is shown once. Each event is sent as a POST whose
          JSON body is <code className={code}>{'{"type", "timestamp", "data"}'}</code>, with three
          headers of the{' '}
          <a href="https://www.standardwebhooks.com/" className={linkClasses}>
            Standard Webhooks
          </a>{' '}
          specification:
        </p>
        <dl className="grid gap-2 rounded-lg border border-border p-4">
          {HEADERS.map(([name, text]) => (
            <div key={name} className="grid gap-0.5">
              <dt className="font-mono text-sm text-foreground">{name}</dt>
              <dd className="text-sm">{text}</dd>
            </div>
          ))}
        </dl>
      </GuideSection>

      <GuideSection id="doc-webhooks-verify" title="Verify signatures">
        <p>
          With the npm package <code className={code}>standardwebhooks</code>, a receiver checks a
          delivery in a few lines. Verify the raw body as it came, before any JSON parsing;{' '}
          <code className={code}>verify</code> throws when the signature or the timestamp is wrong
          (answer 400 then) and returns the event when it is right. Answer 2xx within 10 seconds and
          do the work after.
        </p>
        <CodeBlock label="Webhook receiver" code={RECEIVER} />
      </GuideSection>

      <GuideSection id="doc-webhooks-retries" title="Retries, order and duplicates">
        <ul className="grid list-disc gap-2 pl-6">
          <li>
            A 2xx answer delivers it. Anything else fails the attempt: another status, no answer
            within 10 seconds, or a redirect (never followed).
          </li>
          <li>
            A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then every 10
            h, for three days. An endpoint failing for three days is disabled and you are e-mailed;
            enable it again in Settings and its deliveries resume from the oldest waiting.
          </li>
          <li>
            In order per subject: the events of one instance reach an endpoint in the order they
            happened (a later one waits while an earlier one is retried). Events of different
            subjects may arrive interleaved.
          </li>
          <li>
            At least once: an event can arrive twice (a lost answer, “Send again”), always with the
            same <code className={code}>webhook-id</code>, so deduplicate by it.
          </li>
          <li>
            A URL may not reach a private, loopback, link-local or cloud metadata address; it is
            checked when you add it and again before every attempt. Production takes https only.
          </li>
        </ul>
      </GuideSection>
    </section>
  );
}
