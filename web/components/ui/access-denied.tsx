/** The signed-out state of pages that need a user: what they show instead of their content. */
export function AccessDenied({ message }: { message: string }) {
  return (
    <div className="mt-8 rounded-xl border border-border bg-card p-8 text-center">
      <h2 className="text-xl font-semibold">Access Denied</h2>
      <p className="mt-2 text-muted-foreground">{message}</p>
    </div>
  );
}
