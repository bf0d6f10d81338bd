/** Query keys more than one feature touches (a feature never imports another feature). */
export const CURRENT_USER_KEY = ['/api/auth/user'] as const;
