import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import LandingPage from './routes/landing';

type Lazy = LazyExoticComponent<ComponentType>;
const page = (load: () => Promise<{ default: ComponentType }>): Lazy => lazy(load);

// Every page but the landing page is its own chunk (docs/architecture.md, Front end).
const Marketplace = page(() => import('./routes/marketplace'));
const Deploy = page(() => import('./routes/deploy'));
const Dashboard = page(() => import('./routes/dashboard'));
const VmDashboard = page(() => import('./routes/vm-dashboard'));
// xterm.js loads with this page only.
const VmConsole = page(() => import('./routes/vm-console'));
const Provider = page(() => import('./routes/provider'));
const Payments = page(() => import('./routes/payments'));
const Profile = page(() => import('./routes/profile'));
const Settings = page(() => import('./routes/settings'));
const Blog = page(() => import('./routes/blog'));
const BlogPost = page(() => import('./routes/blog-post'));
const Documentation = page(() => import('./routes/documentation'));
const ProviderSignup = page(() => import('./routes/provider-signup'));
const PrivacyPolicy = page(() => import('./routes/privacy-policy'));
const TermsOfService = page(() => import('./routes/terms-of-service'));
const CookiePolicy = page(() => import('./routes/cookie-policy'));
const ApiReference = page(() => import('./routes/api-reference'));
const HelpCenter = page(() => import('./routes/help-center'));
const ContactUs = page(() => import('./routes/contact-us'));
const NotFound = page(() => import('./routes/not-found'));
const AdminProviderApplications = page(() => import('./routes/admin-provider-applications'));

/** Pages anyone may read, signed in or not (spec part 1 section 2). */
function PublicRoutes() {
  return (
    <>
      <Route path="/blog" component={Blog} />
      <Route path="/blog/:slug" component={BlogPost} />
      <Route path="/documentation" component={Documentation} />
      <Route path="/privacy-policy" component={PrivacyPolicy} />
      <Route path="/terms-of-service" component={TermsOfService} />
      <Route path="/cookie-policy" component={CookiePolicy} />
      <Route path="/api-reference" component={ApiReference} />
      <Route path="/help-center" component={HelpCenter} />
      <Route path="/contact-us" component={ContactUs} />
      {/* The provider application links to /terms and /privacy (spec part 2, Provider application). */}
      <Route path="/terms">
        <Redirect to="/terms-of-service" replace />
      </Route>
      <Route path="/privacy">
        <Redirect to="/privacy-policy" replace />
      </Route>
    </>
  );
}

export function PageFallback() {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8" aria-busy="true">
      <div className="h-8 w-64 animate-pulse rounded bg-muted" />
      <div className="mt-4 h-4 w-96 max-w-full animate-pulse rounded bg-muted" />
    </div>
  );
}

export function SignedInRouter() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        <Route path="/" component={Marketplace} />
        <Route path="/marketplace" component={Marketplace} />
        <Route path="/deploy" component={Deploy} />
        <Route path="/dashboard" component={Dashboard} />
        <Route path="/vm-dashboard" component={VmDashboard} />
        <Route path="/vm-dashboard/console/:id" component={VmConsole} />
        <Route path="/provider" component={Provider} />
        <Route path="/payments" component={Payments} />
        <Route path="/profile" component={Profile} />
        <Route path="/settings" component={Settings} />
        <Route path="/provider-signup" component={ProviderSignup} />
        <Route path="/admin/provider-applications" component={AdminProviderApplications} />
        {PublicRoutes()}
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}

/** Signed out, any path that is not a public page shows the landing screen. */
export function SignedOutRouter() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        {PublicRoutes()}
        <Route component={LandingPage} />
      </Switch>
    </Suspense>
  );
}
