export const adminKeys = {
  providerApplications: ['/api/admin/provider-applications'] as const,
};
