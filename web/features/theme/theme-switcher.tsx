import { THEME_LABELS } from '../../../shared/rules/theme';
import { buttonClasses } from '../../components/ui/button';
import { LazyTrigger } from '../../components/ui/lazy-trigger';
import { THEME_ICONS } from './theme-icons';
import { useTheme } from './theme-provider';

const loadMenu = () => import('./theme-menu');

export function ThemeSwitcher() {
  const { theme } = useTheme();
  const Icon = THEME_ICONS[theme];
  return (
    <LazyTrigger
      load={loadMenu}
      props={{}}
      placeholder={(handlers) => (
        <button
          type="button"
          className={buttonClasses('ghost', 'icon')}
          aria-label={`Theme: ${THEME_LABELS[theme]}. Change theme`}
          aria-haspopup="menu"
          {...handlers}
        >
          <Icon className="h-5 w-5" aria-hidden />
        </button>
      )}
    />
  );
}
