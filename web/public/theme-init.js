// Applies the stored theme before the first paint, so a light-theme user never sees a dark flash.
(function () {
  try {
    var t = localStorage.getItem('theme');
    if (t !== 'dark' && t !== 'light' && t !== 'pastel') t = 'dark';
    var root = document.documentElement;
    root.classList.remove('dark', 'light', 'pastel');
    root.classList.add(t);
    root.style.colorScheme = t === 'dark' ? 'dark' : 'light';
  } catch (e) {}
})();
