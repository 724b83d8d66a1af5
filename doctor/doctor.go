// Package doctor checks that grip can work: a stable grip binary, a host
// manifest each browser can find that starts it for the right extension
// (or, on Linux, a sound `grip install --system`: the packed extension, its
// listing for each browser, the system-wide manifests; for a connected
// browser `grip launch` started, the one in its own profile folder), a connected
// extension, a readable ledger and no recent host error. Each check is a
// line with ✓ or ✗ and, for a ✗, how to fix it — down to what to click in
// chrome://extensions.
package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/internal/winpipe"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// Check is one line of the report.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
	Fix    string `json:"fix,omitempty"`
	// Warn marks a line worth reading that does not stop grip working.
	Warn bool `json:"warn,omitempty"`
}

// Report is the whole check. OK is true when everything one browser needs
// works: grip on a stable path, that browser's manifest right, and at
// least one host connected — and a system-wide install, if any, is sound.
type Report struct {
	Checks []Check `json:"checks"`
	OK     bool    `json:"ok"`
}

// Env is what doctor looks at. Zero fields take the running machine's
// values where there is one.
type Env struct {
	Home        string
	GOOS        string
	Executable  string // this grip binary (os.Executable)
	StateRoot   string // statedir Root
	ExtensionID string // the ID the embedded extension's key gives
	UserDataDir string // a custom --user-data-dir to check as well
	// Probe lists the hosts published in the runtime dir that answered a
	// hello with the right protocol version, and an error for each that did
	// not.
	Probe func(ctx context.Context) ([]protocol.HostInfo, []error)
	// Getenv reads PATH, XDG_CONFIG_HOME and the like for browser
	// detection; nil means os.Getenv.
	Getenv func(string) string
	// SystemRoot is where system-wide files are looked for (the system
	// manifests, a `grip install --system`); "" is the machine's root.
	SystemRoot string
	// LastLeft, if set, is the note the last host left as its browser
	// went (client.LastLeft): a launched browser that is not running is
	// started again with grip launch, not installed.
	LastLeft func() (protocol.HostInfo, bool)
	// Companion, if set, finds the grip that hands its heavy commands to
	// this grip-host and asks its version line (`grip --version`); Version
	// is this binary's line. Two builds side by side work but the one
	// people type may not be the one they updated: a ⚠, not a fault.
	Companion func() (path, version string, err error)
	Version   string
}

// Run performs every check.
func Run(ctx context.Context, env Env) Report {
	env.fill()
	var r Report

	exe := checkExecutable(env)
	r.add(exe)
	if env.Companion != nil {
		r.add(checkCompanion(env))
	}

	sys := checkSystem(env)
	for _, c := range sys.checks {
		r.add(c)
	}

	var hosts []protocol.HostInfo
	var probeErrs []error
	if env.Probe != nil {
		hosts, probeErrs = env.Probe(ctx)
	}

	mcs, manifestsOK := checkManifests(env, sys, hosts)
	for _, c := range mcs {
		r.add(c)
	}

	// Connected, and no connected host with a fault (a ✗ such as an
	// extension from another build).
	conn := checkConnected(env, sys, hosts, probeErrs)
	connected, hostsOK := false, true
	for _, c := range conn {
		r.add(c)
		if c.Name == "extension connected" && c.OK {
			connected = true
		} else if strings.HasPrefix(c.Name, "host ") && !c.OK {
			hostsOK = false
		}
	}

	for _, c := range checkLedger(env) {
		r.add(c)
	}
	r.add(checkHostLog(env))
	pol := checkPolicy(env)
	r.add(pol)

	// A broken system-wide install is a fault even when this user's own
	// set-up works: it serves every user.
	sysOK := !slices.ContainsFunc(sys.checks, func(c Check) bool { return !c.OK })
	r.OK = exe.OK && manifestsOK && connected && hostsOK && sysOK && pol.OK
	return r
}

func (r *Report) add(c Check) { r.Checks = append(r.Checks, c) }

func (e *Env) fill() {
	if e.GOOS == "" {
		e.GOOS = runtime.GOOS
	}
	if e.Getenv == nil {
		e.Getenv = os.Getenv
	}
	if e.Home == "" {
		e.Home, _ = os.UserHomeDir()
	}
	if e.Executable == "" {
		e.Executable, _ = os.Executable()
	}
	if e.StateRoot == "" {
		e.StateRoot, _ = statedir.Root()
	}
	// A relative --user-data-dir names a folder under the working
	// directory, as it does for install; the manifest's place is absolute.
	if e.UserDataDir != "" && e.GOOS == runtime.GOOS && !filepath.IsAbs(e.UserDataDir) {
		if abs, err := filepath.Abs(e.UserDataDir); err == nil {
			e.UserDataDir = abs
		}
	}
}

// checkExecutable checks that this grip lives where a browser can start it
// later.
func checkExecutable(env Env) Check {
	c := Check{Name: "grip binary"}
	if env.Executable == "" {
		c.Detail = "cannot tell where this grip binary is"
		c.Fix = "run grip by its full path"
		return c
	}
	if err := install.CheckHostPath(env.Executable); err != nil {
		c.Detail = err.Error()
		c.Fix = "build grip and grip-host to a lasting place (`go install ./cmd/grip ./cmd/grip-host`), then run `grip install` from there"
		return c
	}
	c.OK, c.Detail = true, env.Executable
	return c
}

// checkCompanion checks that the grip beside this grip-host is there and
// of the same build (docs/cli-cost.md, "The CLI's fixed cost").
func checkCompanion(env Env) Check {
	c := Check{Name: "grip beside grip-host"}
	const fix = "build both from the same source to one folder: `go install ./cmd/grip ./cmd/grip-host`, or unpack the release archive whole"
	path, v, err := env.Companion()
	switch {
	case err != nil:
		c.Warn, c.Detail, c.Fix = true, err.Error(), fix
	case strings.TrimSpace(v) != strings.TrimSpace(env.Version):
		c.Warn, c.Fix = true, fix
		c.Detail = fmt.Sprintf("%s is %q, this grip-host %q: the commands you type and the host Chrome starts come from different builds", path, strings.TrimSpace(v), strings.TrimSpace(env.Version))
	default:
		c.OK, c.Detail = true, path+", the same build"
	}
	return c
}

// target is one place a browser looks for grip's manifest.
type target struct {
	loc       install.Location
	label     string
	installed bool // grip's receipt says it wrote this manifest
	detected  bool // the browser looks installed
	system    bool // a working `grip install --system` serves this browser
	// launched: the profile of a connected browser `grip launch` started,
	// whose manifest launch writes (grip's to rewrite).
	launched bool
}

// targets returns the places to check: detected browsers, browsers on the
// receipt or installed for system-wide, the receipt's custom profile dirs
// and env.UserDataDir.
func targets(env Env, sys systemState, hosts []protocol.HostInfo) ([]target, []string) {
	rec, _, _ := install.ReadReceipt(env.StateRoot)
	found, looked := install.Detect(env.GOOS, env.Home, env.Getenv)
	var out []target
	add := func(t target) {
		for i := range out {
			if out[i].loc.File == t.loc.File {
				out[i].installed = out[i].installed || t.installed
				out[i].detected = out[i].detected || t.detected
				out[i].launched = out[i].launched || t.launched
				return
			}
		}
		out = append(out, t)
	}
	for _, b := range install.Browsers {
		detected := slices.ContainsFunc(found, func(f install.Found) bool { return f.Browser == b })
		installed := slices.ContainsFunc(rec.Manifests, func(m install.ManifestRecord) bool { return m.Browser == b })
		system := sys.browsers[b]
		if !detected && !installed && !system {
			continue
		}
		loc, err := install.Locate(env.GOOS, env.Home, env.Getenv, b, install.User)
		if err != nil {
			continue
		}
		add(target{loc: loc, label: install.DisplayName(b), installed: installed, detected: detected || system, system: system})
	}
	for _, m := range rec.Manifests {
		if m.UserDataDir != "" {
			add(target{loc: m.Location, label: "profile " + m.UserDataDir, installed: true})
		}
	}
	if env.UserDataDir != "" {
		if loc, err := install.LocateUserDataDir(env.GOOS, env.UserDataDir); err == nil {
			add(target{loc: loc, label: "profile " + env.UserDataDir, detected: true})
		}
	}
	for _, dir := range launchedDirs(hosts) {
		if loc, err := install.LocateUserDataDir(env.GOOS, dir); err == nil {
			add(target{loc: loc, label: "launched profile " + dir, detected: true, launched: true})
		}
	}
	return out, looked
}

// launchedDirs are the profile folders of the connected browsers `grip
// launch` started.
func launchedDirs(hosts []protocol.HostInfo) []string {
	var out []string
	for _, h := range hosts {
		if h.Protocol == protocol.Version && h.Launched != nil && h.Launched.ProfileDir != "" && !slices.Contains(out, h.Launched.ProfileDir) {
			out = append(out, h.Launched.ProfileDir)
		}
	}
	return out
}

// installedInUse says whether the installed browsers' manifests matter:
// some connected browser is not one `grip launch` started, or none is
// connected (the person will start their own).
func installedInUse(hosts []protocol.HostInfo) bool {
	for _, h := range hosts {
		if h.Launched == nil {
			return true
		}
	}
	return len(launchedDirs(hosts)) == 0
}

// checkManifests checks each target's manifest; usable is true when at
// least one browser can start a grip for the extension — or, when
// env.UserDataDir names a profile, when that profile's browser can: the
// person asked about that one, and another browser's manifest does not
// help it. A connected browser `grip launch` started reads its own
// profile's manifest, which must be right; when only such browsers are
// connected, the installed browsers' manifests are none of theirs, and a
// fault there is a warning (docs/person.md, "A browser grip
// launched").
func checkManifests(env Env, sys systemState, hosts []protocol.HostInfo) (checks []Check, usable bool) {
	ts, looked := targets(env, sys, hosts)
	if len(ts) == 0 {
		return []Check{{
			Name:   "browsers",
			Detail: "no supported browser found; looked in " + strings.Join(looked, ", "),
			Fix:    "install Chrome, Chromium, Edge, Brave or Vivaldi, or run `grip install --user-data-dir DIR` for a custom profile",
		}}, false
	}
	named := ""
	if env.UserDataDir != "" {
		if loc, err := install.LocateUserDataDir(env.GOOS, env.UserDataDir); err == nil {
			named = loc.File
		}
	}
	inUse := installedInUse(hosts)
	launchedOK, anyLaunched := true, false
	namedAt := -1
	var mine []int // indexes of the installed browsers' manifest checks
	for _, t := range ts {
		c := checkManifest(env, t, sys)
		if named != "" && t.loc.File == named {
			namedAt = len(checks)
		}
		switch {
		case t.launched:
			anyLaunched = true
			launchedOK = launchedOK && c.OK
			c.Warn = c.Warn && c.OK // a connected browser reads it: a fault there is one
		case !inUse:
			if !c.OK || c.Warn {
				c.Warn = true
				c.Detail += "; the browser grip launch started does not read it"
				if c.Fix != "" {
					// Nothing to do for the launched browser: the fix is
					// for using grip in that installed browser too.
					c.Fix = "nothing, for the browser grip launch started; only to use grip in this installed browser as well: " + c.Fix
				}
			}
		default:
			usable = usable || c.OK
			mine = append(mine, len(checks))
		}
		checks = append(checks, c)
		// checkSystem already reported the system-wide manifest of a
		// system-wide install.
		if t.loc.Browser != "" && env.GOOS != "windows" && !t.system {
			if c, ok := checkSystemManifest(env, t); ok {
				checks = append(checks, c)
			}
		}
	}
	if inUse && !usable {
		// With no browser set up, a missing manifest is the fault to fix.
		for _, i := range mine {
			checks[i].Warn = false
		}
	}
	if !inUse {
		usable = true
	}
	if anyLaunched {
		usable = usable && launchedOK
	}
	if namedAt >= 0 {
		usable = checks[namedAt].OK
		if !usable {
			checks[namedAt].Warn = false
		}
	}
	return checks, usable
}

func installCmd(t target) string {
	if t.loc.Browser != "" {
		return "grip install --browser " + t.loc.Browser
	}
	return "grip install --user-data-dir " + t.loc.UserDataDir
}

// checkManifest checks t's manifest. A fix never says to overwrite a file
// that is not grip's to write: one on grip's receipt, or a launched
// profile's (grip launch rewrites it each time).
func checkManifest(env Env, t target, sys systemState) Check {
	c := checkManifestFile(env, t, sys)
	if c.Fix == "" {
		return c
	}
	if t.launched {
		c.Fix = "run `grip launch --profile-dir " + t.loc.UserDataDir + "` again: it writes this profile's manifest afresh"
		return c
	}
	file, ok, err := install.RegisteredFile(t.loc)
	if err != nil || !ok {
		return c
	}
	if _, err := os.Lstat(file); err != nil {
		return c // nothing there to overwrite
	}
	if !t.installed {
		c.Fix = "grip did not write " + file + " (it is not on grip's receipt), so grip will not replace it: it may be another grip's or another program's. " +
			"Leave it to whoever installed it; to use grip without it, run `grip launch` (a browser of its own, with its own manifest). " +
			"If you know it is a stale copy of yours, remove it yourself, then run `" + installCmd(t) + "`"
	}
	return c
}

func checkManifestFile(env Env, t target, sys systemState) Check {
	c := Check{Name: t.label + " host manifest"}
	fix := "run `" + installCmd(t) + "`"
	file, ok, err := install.RegisteredFile(t.loc)
	if err == nil && t.system {
		if _, statErr := os.Stat(file); errors.Is(statErr, fs.ErrNotExist) {
			c.OK = true
			c.Detail = "none of your own; the system-wide install serves " + t.label
			return c
		}
	}
	switch {
	case err != nil:
		c.Detail, c.Fix = fmt.Sprintf("cannot read registry key %s: %v", t.loc.Registry(), err), fix
		return c
	case !ok:
		c.Detail, c.Fix = "no registry key "+t.loc.Registry(), fix
		c.Warn = !t.installed
		return c
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		c.Detail, c.Fix = "no manifest at "+file, fix
		if !t.installed && !t.launched {
			// A browser grip was never installed for: worth knowing, not a fault.
			c.Detail = "grip is not installed for this browser (no " + file + ")"
			c.Warn = true
		}
		return c
	}
	if err != nil {
		c.Detail, c.Fix = fmt.Sprintf("cannot read %s: %v", file, err), fix
		return c
	}
	h, err := manifest.Parse(data)
	if err != nil {
		c.Detail, c.Fix = fmt.Sprintf("%s: %v", file, err), fix
		return c
	}
	if h.Name != manifest.HostName {
		c.Detail, c.Fix = fmt.Sprintf("%s names host %q, want %q", file, h.Name, manifest.HostName), fix
		return c
	}
	if why := notExecutable(env.GOOS, h.Path); why != "" {
		c.Detail = fmt.Sprintf("%s starts %s, which %s", file, h.Path, why)
		c.Fix = "run `grip install` from the grip binary you want browsers to start (" + installCmd(t) + ")"
		return c
	}
	if env.ExtensionID != "" {
		if err := manifest.AllowedOrigin(manifest.Origin(env.ExtensionID), h.AllowedOrigins); err != nil {
			c.Detail = fmt.Sprintf("%s allows %s, not the grip extension (%s)", file, strings.Join(h.AllowedOrigins, ", "), manifest.Origin(env.ExtensionID))
			c.Fix = fix
			return c
		}
	}
	if t.system && sys.id != "" {
		if err := manifest.AllowedOrigin(manifest.Origin(sys.id), h.AllowedOrigins); err != nil {
			c.Detail = fmt.Sprintf("%s does not allow the extension installed system-wide (%s); the browser reads it before the system-wide manifest, so that extension cannot start grip", file, sys.id)
			c.Fix = fix + " (it allows both extensions)"
			return c
		}
	}
	c.OK = true
	c.Detail = file + " → " + h.Path
	if env.Executable != "" && !sameFile(h.Path, env.Executable) {
		if !looksLikeGrip(h.Path) {
			c.OK = false
			c.Detail = fmt.Sprintf("%s starts %s, which is not grip (this is %s)", file, h.Path, env.Executable)
			c.Fix = fix
			return c
		}
		c.Warn = true
		c.Detail = fmt.Sprintf("%s starts another grip, %s (this is %s)", file, h.Path, env.Executable)
		c.Fix = "if that is not the grip you mean, run `" + installCmd(t) + "` from this one"
	}
	return c
}

// checkSystemManifest reports a system-wide manifest for grip's host name,
// which the browser also reads; ok is false when there is none.
func checkSystemManifest(env Env, t target) (Check, bool) {
	loc, err := install.Locate(env.GOOS, env.Home, env.Getenv, t.loc.Browser, install.System)
	if err != nil {
		return Check{}, false
	}
	loc.File = install.SystemPath(env.SystemRoot, loc.File)
	data, err := os.ReadFile(loc.File)
	if err != nil {
		return Check{}, false
	}
	c := Check{Name: t.label + " system-wide manifest", OK: true, Warn: true}
	h, err := manifest.Parse(data)
	if err != nil {
		c.Detail = fmt.Sprintf("%s also exists and is invalid (%v); the browser may read it instead of yours", loc.File, err)
	} else if env.Executable != "" && sameFile(h.Path, env.Executable) {
		return Check{}, false
	} else {
		c.Detail = fmt.Sprintf("%s also exists and starts %s; the browser may read it instead of yours", loc.File, h.Path)
	}
	c.Fix = "remove it (sudo rm " + loc.File + ") unless it is the grip you mean"
	return c, true
}

// notExecutable says why path cannot be started, or "".
func notExecutable(goos, path string) string {
	if !filepath.IsAbs(path) && goos != "windows" {
		return "is not an absolute path"
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "does not exist"
	}
	if err != nil {
		return "cannot be read: " + err.Error()
	}
	if !fi.Mode().IsRegular() {
		return "is not a file"
	}
	if goos != "windows" && fi.Mode()&0o111 == 0 {
		return "is not executable"
	}
	return ""
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// looksLikeGrip reports whether path names a binary called grip.
func looksLikeGrip(path string) bool {
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(path)), ".exe")
	return base == "grip"
}

// checkConnected reports the hosts Probe found, and those that did not
// answer.
func checkConnected(env Env, sys systemState, hosts []protocol.HostInfo, errs []error) []Check {
	c := Check{Name: "extension connected"}
	if env.Probe == nil {
		c.Detail = "cannot look for running hosts"
		return []Check{c}
	}
	var good []string
	var out []Check
	for _, h := range hosts {
		desc := describeHost(h)
		switch {
		case h.Protocol != protocol.Version:
			out = append(out, Check{
				Name:   "host " + h.Profile,
				Detail: fmt.Sprintf("%s speaks protocol %d, this grip %d", desc, h.Protocol, protocol.Version),
				Fix:    "run `grip install` with this grip and reload the extension (chrome://extensions → grip → reload)",
			})
		case h.Warning != "":
			good = append(good, desc)
			out = append(out, Check{
				Name:   "host " + h.Profile,
				Detail: desc + ": " + h.Warning,
				Fix:    "run `grip install` with this grip, then reload grip in chrome://extensions (or restart the browser); after `sudo grip install --system`, restart the browser",
			})
		case env.ExtensionID != "" && h.ExtensionID != "" && h.ExtensionID != env.ExtensionID && (sys.id == "" || h.ExtensionID != sys.id):
			good = append(good, desc)
			out = append(out, Check{
				Name: "host " + h.Profile, OK: true, Warn: true,
				Detail: fmt.Sprintf("%s was started by extension %s, not %s", desc, h.ExtensionID, env.ExtensionID),
			})
		default:
			good = append(good, desc)
		}
		if h.Paused {
			// Ready, and still every action will be refused: say so.
			fix := "the person resumes from the grip popup, or runs `grip resume` and allows it there"
			if h.Launched != nil {
				fix = "`grip resume --token-file " + filepath.Join(h.Launched.ProfileDir, launcher.ResumeTokenName) + "` (the token grip launch wrote lifts the pause in the browser it started)"
			}
			out = append(out, Check{Name: "paused", OK: true, Warn: true,
				Detail: desc + ": agents are paused here, so every action is refused until the pause is lifted (reads still work)", Fix: fix})
		}
	}
	var probs []string
	for _, err := range errs {
		if errors.Is(err, winpipe.ErrNotOwner) {
			// Windows: the name of a host's pipe is served by a process
			// of another user's (a squatter, or a host of someone else's
			// that the name's hash should have kept apart).
			out = append(out, Check{Name: "agents' pipe", Detail: err.Error(),
				Fix: "a process that is not yours serves grip's pipe, so grip will not talk to it: end that process (Task Manager → Details, by the PID above, or `taskkill /PID <pid>` as an administrator), then reload grip in chrome://extensions so the host starts again"})
			continue
		}
		probs = append(probs, err.Error())
	}
	if len(good) > 0 {
		c.OK = true
		c.Detail = strings.Join(good, "; ")
		for _, p := range probs {
			out = append(out, Check{Name: "stale host", OK: true, Warn: true, Detail: p})
		}
		return append([]Check{c}, out...)
	}
	c.Detail = "no browser has grip's extension connected"
	if len(probs) > 0 {
		c.Detail += ": " + strings.Join(probs, "; ")
	}
	c.Fix = connectFix(env.GOOS, sys)
	if env.LastLeft != nil {
		if left, ok := env.LastLeft(); ok && left.Launched != nil {
			// The last browser grip served was one grip launch started:
			// that is what to start again, not an install.
			c.Detail += fmt.Sprintf("; the last one, which grip launch started (profile folder %s), left at %s", left.Launched.ProfileDir, left.Left)
			c.Fix = "start it again with `grip launch` (it is not running); to use your own browser instead: " + c.Fix
		}
	}
	return append([]Check{c}, out...)
}

// connectFix says how to get the extension running: on Linux with a
// system-wide install, what the browser shows and what to click; else Load
// unpacked, and on Linux the way around Developer mode.
func connectFix(goos string, sys systemState) string {
	if sys.id != "" {
		return "quit the browser completely and start it again (it installs grip at start); in chrome://extensions make sure grip's switch is on, and if Safety Check lists grip (\"can't verify where this extension comes from\"), click ⋮ beside it, then \"Keep this extension\"; then run `grip doctor` again"
	}
	unpacked := "open the browser with the grip extension loaded (chrome://extensions → Developer mode → Load unpacked → the folder `grip install` printed); if it is loaded, click its reload arrow, then run `grip doctor` again"
	switch goos {
	case "linux":
		return unpacked + "; to do without Developer mode, install for the whole machine: `sudo grip install --system`"
	case "darwin", "windows":
		return unpacked + " (Chrome on macOS and Windows installs extensions from outside the Chrome Web Store only by enterprise policy, so Load unpacked is the way there); " +
			"with grip from the Chrome Web Store instead, run `grip install --extension-id ID` with the ID its card in chrome://extensions shows"
	}
	return unpacked
}

// permFix says how to check that a folder of grip's is the user's alone.
func permFix(goos, dir string) string {
	if goos == "windows" {
		return "check the folder is yours: `icacls \"" + dir + "\"` should list you (and SYSTEM, Administrators) only; `icacls \"" + dir + "\" /reset /T` restores what %LocalAppData% gives it"
	}
	return "check the folder's owner and permissions (it should be yours, mode 0700)"
}

func describeHost(h protocol.HostInfo) string {
	var parts []string
	if h.Browser != "" {
		parts = append(parts, h.Browser)
	}
	parts = append(parts, "profile "+h.Profile)
	if h.ExtensionVersion != "" {
		parts = append(parts, "extension "+h.ExtensionVersion)
	}
	if h.PID != 0 {
		parts = append(parts, fmt.Sprintf("pid %d", h.PID))
	}
	if l := h.Launched; l != nil {
		how := "headed"
		if l.Headless {
			how = "headless"
		}
		parts = append(parts, "started by grip launch ("+how+", profile folder "+l.ProfileDir+")")
	}
	return strings.Join(parts, ", ")
}

// checkLedger checks that the ledger files are readable (JSON ones parse)
// and warns about files refcache moved aside. refcache owns the format.
func checkLedger(env Env) []Check {
	dir := statedir.At(env.StateRoot).Ledger
	c := Check{Name: "ledger", OK: true}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		c.Detail = "none yet (" + dir + ")"
		return []Check{c}
	}
	if err != nil {
		c.OK, c.Detail = false, fmt.Sprintf("cannot read %s: %v", dir, err)
		c.Fix = permFix(env.GOOS, dir)
		return []Check{c}
	}
	var out []Check
	var bad []string
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		if strings.Contains(name, ".bad-") {
			out = append(out, Check{
				Name: "ledger file moved aside", OK: true, Warn: true,
				Detail: p + ": the host refused it and started above every ref it could read",
				Fix:    "nothing to do; delete it once you no longer need it for a bug report",
			})
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		if strings.HasSuffix(name, ".json") {
			n++
			if !json.Valid(data) {
				bad = append(bad, p+": not valid JSON")
			}
		}
	}
	if len(bad) > 0 {
		c.OK = false
		c.Detail = strings.Join(bad, "; ")
		c.Fix = "close the browser (so no host holds it) and move the file aside; the host starts a fresh ledger above every ref it can read"
	} else {
		c.Detail = fmt.Sprintf("%d profile ledger(s) readable in %s", n, dir)
	}
	return append([]Check{c}, out...)
}

// logTail is how much of the end of host.log doctor reads.
const logTail = 64 << 10

// checkHostLog reports the last line of the host log that mentions an error.
func checkHostLog(env Env) Check {
	path := filepath.Join(statedir.At(env.StateRoot).Logs, "host.log")
	c := Check{Name: "host log", OK: true}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.Detail = "no host log yet (" + path + ")"
		return c
	}
	if err != nil {
		c.Warn, c.Detail = true, fmt.Sprintf("cannot read %s: %v", path, err)
		return c
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > logTail {
		_, _ = f.Seek(fi.Size()-logTail, io.SeekStart)
	}
	data, _ := io.ReadAll(io.LimitReader(f, logTail))
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for _, line := range slices.Backward(lines) {
		if strings.Contains(strings.ToLower(line), "error") {
			c.Warn = true
			c.Detail = "last error in " + path + ": " + strings.TrimSpace(line)
			return c
		}
	}
	c.Detail = "no errors in " + path
	return c
}

// Text renders the report: a ✓, ⚠ or ✗ line per check, the fix indented
// under each ✗ and ⚠, and a closing verdict.
func (r Report) Text() string {
	var b strings.Builder
	for _, c := range r.Checks {
		mark := "✗"
		switch {
		case c.OK && c.Warn, !c.OK && c.Warn:
			mark = "⚠"
		case c.OK:
			mark = "✓"
		}
		line := mark + " " + c.Name
		if c.Detail != "" {
			line += ": " + c.Detail
		}
		b.WriteString(line + "\n")
		if c.Fix != "" && (!c.OK || c.Warn) {
			b.WriteString("    fix: " + c.Fix + "\n")
		}
	}
	if r.OK {
		b.WriteString("grip is ready.\n")
	} else {
		b.WriteString("grip is not ready: fix the ✗ lines above.\n")
	}
	return b.String()
}
