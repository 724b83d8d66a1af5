package launcher

import "errors"

// ErrNotFound is returned by Find when no Chromium-family browser is
// installed where it looks; the wrapping error names what to install.
var ErrNotFound = errors.New("browser: no Chromium-family browser found")

// ErrExited is returned when the browser process ended before it was
// asked to stop (another Chromium already owns the profile, a crash).
var ErrExited = errors.New("browser: the browser exited")

// ErrNoDisplay is returned by Start for a headed browser on a Linux or BSD
// machine with neither DISPLAY nor WAYLAND_DISPLAY set.
var ErrNoDisplay = errors.New("browser: no display for a headed browser (DISPLAY and WAYLAND_DISPLAY are unset); run headless, without --headed")
