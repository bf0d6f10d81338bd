/** The small part of PayPal's JavaScript SDK this page uses (paypal.Buttons). */
export interface PaypalButtonsOptions {
  style?: Record<string, string | number | boolean>;
  createOrder: () => Promise<string>;
  onApprove: (data: { orderID: string }) => Promise<void>;
  onCancel?: (data: { orderID?: string }) => void;
  onError?: (error: unknown) => void;
}

export interface PaypalButtonsInstance {
  render(container: HTMLElement): Promise<void>;
  close?: () => Promise<void>;
}

export interface PaypalNamespace {
  Buttons(options: PaypalButtonsOptions): PaypalButtonsInstance;
}

declare global {
  interface Window {
    paypal?: PaypalNamespace;
  }
}

const loads = new Map<string, Promise<PaypalNamespace>>();

/** The SDK's address with the client id, USD and capture intent. */
export function paypalSdkSrc(sdkUrl: string, clientId: string): string {
  const url = new URL(sdkUrl, window.location.href);
  url.searchParams.set('client-id', clientId);
  url.searchParams.set('currency', 'USD');
  url.searchParams.set('intent', 'capture');
  url.searchParams.set('components', 'buttons');
  return url.toString();
}

/** Loads the SDK script once per address; a failed load can be tried again. */
export function loadPaypalSdk(src: string): Promise<PaypalNamespace> {
  const pending = loads.get(src);
  if (pending) return pending;
  const load = new Promise<PaypalNamespace>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => {
      if (window.paypal) resolve(window.paypal);
      else reject(new Error('PayPal SDK loaded without window.paypal'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`Could not load ${src}`));
    };
    document.head.appendChild(script);
  });
  load.catch(() => loads.delete(src));
  loads.set(src, load);
  return load;
}
