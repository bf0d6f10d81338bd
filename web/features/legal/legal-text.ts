/** A legal page: its title, when it last changed, and its text in the simple markup. */
export interface LegalText {
  title: string;
  description: string;
  lastUpdated: string;
  content: string;
}
