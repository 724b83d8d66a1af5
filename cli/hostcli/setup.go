package hostcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/grip-dev/grip/cli"
	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/doctor"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return fmt.Sprint(*s) }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func installOptions(browsers []string, userDataDir string) (install.Options, error) {
	exe, err := os.Executable()
	if err != nil {
		return install.Options{}, err
	}
	dirs, err := statedir.Get()
	if err != nil {
		return install.Options{}, err
	}
	return install.Options{
		Browsers: browsers, UserDataDir: userDataDir, HostPath: exe,
		ExtensionFS: extension.Files(), DataDir: dirs.Data, StateRoot: dirs.Root,
	}, nil
}

func cmdInstall(ctx context.Context, a *cli.App, argv []string) (bool, error) {
	f := cli.NewFlags(a, "install")
	var browsers stringList
	f.Var(&browsers, "browser", "chrome, chromium, edge, brave, vivaldi or all (repeatable; default: the detected ones)")
	udd := f.String("user-data-dir", "", "install only for a browser started with this --user-data-dir (the default profile's manifest is left alone)")
	system := f.Bool("system", false, "install for every user of this Linux machine, without Developer mode (needs root)")
	var extraIDs stringList
	f.Var(&extraIDs, "extension-id", "also let the extension with this ID start grip, e.g. grip from the Chrome Web Store (repeatable)")
	force := f.Bool("force", false, "replace a host manifest that starts another grip binary")
	pos, err := f.ParseArgs(argv)
	if err != nil {
		return f.JSON(), err
	}
	if len(pos) > 0 {
		return f.JSON(), cli.Usagef("install takes flags only, got %q", pos[0])
	}
	if *system {
		if *udd != "" {
			return f.JSON(), cli.Usagef("--system installs for every profile; --user-data-dir does not go with it")
		}
		return f.JSON(), installSystem(a, browsers, f.JSON())
	}
	opt, err := installOptions(browsers, *udd)
	if err != nil {
		return f.JSON(), err
	}
	opt.ExtraExtensionIDs, opt.Force = extraIDs, *force
	res, err := install.Install(opt)
	if err != nil {
		if errors.Is(err, install.ErrUnknownBrowser) || errors.Is(err, install.ErrBadOptions) {
			return f.JSON(), cli.Usagef("%v", err)
		}
		if errors.Is(err, install.ErrOtherInstall) {
			return f.JSON(), protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryHost,
				"uninstall the other grip first, or run grip install --force to replace its manifest", "%v", err)
		}
		return f.JSON(), protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryHost,
			"pass --browser NAME or --user-data-dir DIR", "%v", err)
	}
	if f.JSON() {
		a.PrintJSON(res)
	} else {
		fmt.Fprint(a.Stdout, res.Text())
	}
	return f.JSON(), nil
}

func cmdUninstall(ctx context.Context, a *cli.App, argv []string) (bool, error) {
	f := cli.NewFlags(a, "uninstall")
	var browsers stringList
	f.Var(&browsers, "browser", "only these browsers (repeatable)")
	udd := f.String("user-data-dir", "", "the custom profile folder install was given")
	system := f.Bool("system", false, "remove what `grip install --system` wrote (needs root)")
	if _, err := f.ParseArgs(argv); err != nil {
		return f.JSON(), err
	}
	var removed []string
	var err error
	if *system {
		if len(browsers) > 0 || *udd != "" {
			return f.JSON(), cli.Usagef("uninstall --system removes the system-wide install for every browser; --browser and --user-data-dir do not go with it")
		}
		if err := needRoot(runtime.GOOS, os.Geteuid(), "uninstall"); err != nil {
			return f.JSON(), err
		}
		removed, err = install.UninstallSystem(install.SystemOptions{GOOS: runtime.GOOS})
	} else {
		opt, oerr := installOptions(browsers, *udd)
		if oerr != nil {
			return f.JSON(), oerr
		}
		removed, err = install.Uninstall(opt)
	}
	var warning string
	if err != nil {
		if !errors.Is(err, install.ErrLeftAlone) {
			return f.JSON(), err
		}
		warning = err.Error()
	}
	if removed == nil {
		removed = []string{}
	}
	if f.JSON() {
		out := map[string]any{"removed": removed}
		if warning != "" {
			out["warning"] = warning
		}
		a.PrintJSON(out)
		return true, nil
	}
	for _, p := range removed {
		fmt.Fprintln(a.Stdout, "removed "+p)
	}
	if len(removed) == 0 {
		fmt.Fprintln(a.Stdout, "nothing to remove")
	}
	if warning != "" {
		fmt.Fprintln(a.Stderr, "grip: warning: "+warning)
	}
	return false, nil
}

func cmdDoctor(ctx context.Context, a *cli.App, argv []string) (bool, error) {
	f := cli.NewFlags(a, "doctor")
	udd := f.String("user-data-dir", "", "also check a browser started with this --user-data-dir")
	if _, err := f.ParseArgs(argv); err != nil {
		return f.JSON(), err
	}
	exe, err := os.Executable()
	if err != nil {
		return f.JSON(), err
	}
	dirs, err := statedir.Get()
	if err != nil {
		return f.JSON(), err
	}
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		return f.JSON(), err
	}
	home, _ := os.UserHomeDir()
	rep := doctor.Run(ctx, doctor.Env{
		Home: home, GOOS: runtime.GOOS, Executable: exe, StateRoot: dirs.Root, ExtensionID: id, UserDataDir: *udd,
		Probe:     func(ctx context.Context) ([]protocol.HostInfo, []error) { return client.Probe(ctx, dirs.Runtime) },
		LastLeft:  func() (protocol.HostInfo, bool) { return client.LastLeft(dirs.Runtime) },
		Companion: func() (string, string, error) { return companion(ctx, exe) },
		Version:   cli.VersionLine(),
	})
	if f.JSON() {
		a.PrintJSON(rep)
	} else {
		fmt.Fprint(a.Stdout, rep.Text())
	}
	if !rep.OK {
		return f.JSON(), cli.ErrSilent
	}
	return f.JSON(), nil
}

// companion asks the grip beside this grip-host (the one that hands it
// its commands) for its version line.
func companion(ctx context.Context, exe string) (path, version string, err error) {
	name := "grip"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	path = filepath.Join(filepath.Dir(exe), name)
	if _, err := os.Stat(path); err != nil {
		return path, "", fmt.Errorf("no grip beside %s (%s): the command people type hands doctor, install and the rest to this one", exe, path)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return path, "", fmt.Errorf("%s --version: %v", path, err)
	}
	return path, string(out), nil
}

// needRoot refuses a system-wide install or uninstall on an OS that has
// none, or when not running as root (euid), saying how to run it.
func needRoot(goos string, euid int, verb string) error {
	if goos != "linux" {
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryHost,
			"run `grip install` and load the extension unpacked (chrome://extensions → Developer mode → Load unpacked)",
			"grip %s --system is Linux-only: Chrome on %s installs extensions from outside the Chrome Web Store only by enterprise policy", verb, goos)
	}
	if euid == 0 {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		exe = "grip"
	}
	return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryHost,
		"run: sudo "+exe+" "+verb+" --system",
		"grip %s --system writes to /etc, /opt, /usr/lib and /var/lib, which needs root", verb)
}

// installSystem is `grip install --system`.
func installSystem(a *cli.App, browsers []string, jsonOut bool) error {
	if err := needRoot(runtime.GOOS, os.Geteuid(), "install"); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	res, err := install.InstallSystem(install.SystemOptions{
		Browsers: browsers, HostPath: exe, ExtensionFS: extension.Files(), GOOS: runtime.GOOS,
	})
	if err != nil {
		if errors.Is(err, install.ErrUnknownBrowser) {
			return cli.Usagef("%v", err)
		}
		return protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryHost,
			"install Chromium, Chrome, Edge, Brave or Vivaldi from its Linux package, or name one with --browser", "%v", err)
	}
	if jsonOut {
		a.PrintJSON(res)
	} else {
		fmt.Fprint(a.Stdout, systemText(res))
	}
	return nil
}

// systemText renders a system-wide install for a person: what was written,
// then what each user will see and do.
func systemText(r install.SystemResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "grip host: %s\n", r.HostPath)
	fmt.Fprintf(&b, "extension %s, version %s, packed at %s\n", r.ExtensionID, r.ExtensionVersion, r.CRX)
	b.WriteString("listed for the browsers in:\n")
	for _, p := range r.ExternalExtensions {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	b.WriteString("host manifests written:\n")
	for _, p := range r.Manifests {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	b.WriteString("\n")
	b.WriteString(install.SystemInstructions(r.ExtensionID))
	return b.String()
}
