// Applies the stored theme before the first paint, so a light-theme user never sees a dark flash.
try {
  const stored = localStorage.getItem('theme');
  const theme = stored === 'light' || stored === 'pastel' ? stored : 'dark';
  const root = document.documentElement;
  root.classList.remove('dark', 'light', 'pastel');
  root.classList.add(theme);
  root.style.colorScheme = theme === 'dark' ? 'dark' : 'light';
} catch {
  // Storage blocked: the default dark theme stays.
}
