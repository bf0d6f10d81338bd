/**
 * Maximum lengths of every free-text field, in characters. The zod contracts and the web
 * forms (maxLength) both read them, so the form stops where the server would refuse.
 */
export const TEXT_LIMITS = {
  email: 254,
  firstName: 50,
  lastName: 50,
  phone: 30,
  location: 100,
  bio: 500,
  company: 100,
  website: 200,
  /** Names of API keys and SSH keys. */
  keyName: 60,
  sshPublicKey: 16_384,
  contactName: 100,
  contactSubject: 200,
  contactMessage: 5000,
  listingLocation: 100,
  powerConsumption: 40,
  additionalSpecs: 500,
  /** Specifications sent as JSON text. */
  specificationsJson: 2000,
  /** The marketplace's search box and model filter. */
  searchModel: 100,
  searchGpuType: 50,
  cursor: 200,
  /** A custom amount as typed ("1000.00"). */
  amount: 12,
} as const;
