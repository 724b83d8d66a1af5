// The walker's observer, in the page's own main world (walk/observer.go):
// every timer, animation frame and idle callback the page asks for carries
// the time its chain began (the time it was asked for, or, for one asked
// for while another ran, that one's: jQuery fades by animation frames a
// timer started), and its run is
// bracketed by the events grip-walk-timer-in (detail: that time) and
// grip-walk-timer-out, which the observer's isolated world hears (world.js).
// So the observer tells a change a timer set before an action made (a
// notification hiding itself) from one the action caused. Installed before
// the page's scripts run, it is the setTimeout they capture.
(() => {
  const key = Symbol.for('grip.walk.timers');
  if (window[key]) return;
  window[key] = true;
  let cur = null;
  const wrap = (fn, origin) => function (...args) {
    const saved = cur;
    cur = origin;
    dispatchEvent(new CustomEvent('grip-walk-timer-in', { detail: origin }));
    try {
      return fn.apply(this, args);
    } finally {
      cur = saved;
      dispatchEvent(new CustomEvent('grip-walk-timer-out'));
    }
  };
  for (const name of ['setTimeout', 'setInterval', 'requestAnimationFrame', 'requestIdleCallback']) {
    if (typeof window[name] !== 'function') continue;
    const own = window[name];
    window[name] = function (fn, ...rest) {
      if (typeof fn !== 'function') return own.call(this, fn, ...rest);
      return own.call(this, wrap(fn, cur !== null ? cur : performance.now()), ...rest);
    };
  }
})();
