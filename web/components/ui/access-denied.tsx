/** The signed-out state of pages that need a user (spec part 2 section 2). */
export function AccessDenied({ message }: { message: string }) {
  return (
    <div className="mt-8 rounded-xl border border-border bg-card p-8 text-center">
      <h2 className="text-xl font-semibold">Access Denied</h2>
      <p className="mt-2 text-muted-foreground">{message}</p>
    </div>
  );
}
