/**
 * What the provider dashboard's listing dialog and list say (docs/rules.md, "Screens and
 * texts"). The toasts' titles and the added and missing-fields descriptions are the spec's; a
 * listing without a ready host is saved but not in the marketplace, and says so instead.
 */
export const LISTING_TEXT = {
  /** Under each required field sent empty; the contract answers the same for model and memory. */
  fields: {
    model: 'Choose a GPU model from the list',
    memory: 'Choose a memory size from the list',
    location: 'Location is required',
    hourlyRate: 'Hourly rate is required',
  },
  missingTitle: 'Missing Information',
  missingDescription: 'Please fill in all required fields.',
  addedTitle: 'GPU Added Successfully!',
  addedDescription: 'Your GPU listing is now available in the marketplace.',
  addedWithoutHostDescription:
    'Your GPU listing is saved. It appears in the marketplace once its host is connected and ready.',
  /** A listing with no host: its badge, and the line under it. */
  notConnected: 'Not connected',
  notConnectedNotice:
    'Not shown in the marketplace until its host is connected and ready. Choose a host under Edit.',
  /** A listing whose host serves none of its GPUs yet. */
  notReadyNotice: 'Not shown in the marketplace until its host is ready to serve these GPUs.',
  emptyList:
    'Add your first GPU; once its host is connected and ready, it appears in the marketplace.',
} as const;
