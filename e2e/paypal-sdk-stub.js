// A stand-in for PayPal's JavaScript SDK in browser tests, served by the fake PayPal
// (server/test/fake-paypal.ts) at PAYPAL_SDK_URL. paypal.Buttons({...}).render(el) draws a
// "PayPal" button: a click runs the page's createOrder, approves the order at the fake
// PayPal as the buyer would in PayPal's window, then calls the page's onApprove. A second
// button cancels, to drive onCancel. Everything after that is the real server flow.
(() => {
  const origin = '__FAKE_PAYPAL_ORIGIN__';

  function button(label, text, background) {
    const el = document.createElement('button');
    el.type = 'button';
    el.textContent = text;
    el.setAttribute('aria-label', label);
    el.style.cssText = `display:block;width:100%;height:44px;margin:0 0 8px;border:0;border-radius:4px;font:600 16px sans-serif;cursor:pointer;background:${background};color:#111`;
    return el;
  }

  window.paypal = {
    Buttons(options) {
      let root = null;
      return {
        isEligible: () => true,
        async render(container) {
          const target =
            typeof container === 'string' ? document.querySelector(container) : container;
          root = document.createElement('div');
          root.dataset.paypalStub = 'true';
          const pay = button('PayPal', 'PayPal', '#ffc439');
          const cancel = button('Cancel PayPal payment', 'Cancel', '#e5e7eb');
          pay.onclick = async () => {
            let orderID;
            try {
              orderID = await options.createOrder({}, {});
            } catch (error) {
              options.onError?.(error);
              return;
            }
            const approved = await fetch(`${origin}/test/orders/${orderID}/approve`, {
              method: 'POST',
            });
            if (!approved.ok) {
              options.onError?.(new Error('approval failed'));
              return;
            }
            try {
              await options.onApprove({ orderID, payerID: 'TESTPAYER' }, {});
            } catch (error) {
              options.onError?.(error);
            }
          };
          cancel.onclick = async () => {
            try {
              const orderID = await options.createOrder({}, {});
              options.onCancel?.({ orderID });
            } catch (error) {
              options.onError?.(error);
            }
          };
          root.append(pay, cancel);
          target.append(root);
        },
        async close() {
          root?.remove();
        },
      };
    },
  };
})();
