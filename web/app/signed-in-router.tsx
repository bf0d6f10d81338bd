import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { PageFallback, PublicRoutes } from './router';

const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

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
const ProviderSignup = page(() => import('./routes/provider-signup'));
const NotFound = page(() => import('./routes/not-found'));
const AdminProviderApplications = page(() => import('./routes/admin-provider-applications'));

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
