import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check } from 'lucide-react';
import { THEME_DESCRIPTIONS, THEME_LABELS, THEMES, type Theme } from '../../../shared/rules/theme';
import { buttonClasses } from '../../components/ui/button';
import { Menu } from '../../components/ui/menu';
import { THEME_ICONS } from './theme-icons';
import { useTheme } from './theme-provider';

/** The Radix menu, loaded on first use so the landing page does not carry it. */
export default function ThemeMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const { theme, setTheme } = useTheme();
  const Icon = THEME_ICONS[theme];
  return (
    <Menu
      label={`Theme: ${THEME_LABELS[theme]}. Change theme`}
      triggerClassName={buttonClasses('ghost', 'icon')}
      trigger={<Icon className="h-5 w-5" aria-hidden />}
      defaultOpen={defaultOpen}
    >
      <DropdownMenu.Label className="px-2 py-1.5 text-xs font-semibold text-muted-foreground">
        Theme
      </DropdownMenu.Label>
      <DropdownMenu.RadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
        {THEMES.map((option) => {
          const OptionIcon = THEME_ICONS[option];
          return (
            <DropdownMenu.RadioItem
              key={option}
              value={option}
              className="flex cursor-pointer items-start gap-2 rounded-md px-2 py-2 text-sm outline-none data-[highlighted]:bg-muted"
            >
              <OptionIcon className="mt-0.5 h-4 w-4" aria-hidden />
              <span className="grid flex-1">
                <span className="font-medium">{THEME_LABELS[option]}</span>
                <span className="text-xs text-muted-foreground">{THEME_DESCRIPTIONS[option]}</span>
              </span>
              <DropdownMenu.ItemIndicator>
                <Check className="h-4 w-4" aria-hidden />
              </DropdownMenu.ItemIndicator>
            </DropdownMenu.RadioItem>
          );
        })}
      </DropdownMenu.RadioGroup>
    </Menu>
  );
}
