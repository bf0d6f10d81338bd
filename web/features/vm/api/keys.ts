/** The VM dashboard's query keys; each is also the URL the default query function fetches. */
export const VM_INSTANCES_KEY = ['/api/kvm/instances'] as const;
export const VM_GPUS_KEY = ['/api/kvm/gpus'] as const;
export const VM_TEMPLATES_KEY = ['/api/kvm/templates'] as const;
export const VM_BILLING_KEY = ['/api/kvm/billing/summary'] as const;
