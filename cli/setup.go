package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/doctor"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

func init() {
	commands["install"] = cmdInstall
	commands["uninstall"] = cmdUninstall
	commands["doctor"] = cmdDoctor
}

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

func cmdInstall(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "install")
	var browsers stringList
	f.Var(&browsers, "browser", "chrome, chromium, edge, brave, vivaldi or all (repeatable; default: the detected ones)")
	udd := f.String("user-data-dir", "", "also install for a browser started with this --user-data-dir")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("install takes flags only, got %q", pos[0])
	}
	opt, err := installOptions(browsers, *udd)
	if err != nil {
		return *f.json, err
	}
	res, err := install.Install(opt)
	if err != nil {
		if errors.Is(err, install.ErrUnknownBrowser) {
			return *f.json, usagef("%v", err)
		}
		return *f.json, protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryHost,
			"pass --browser NAME or --user-data-dir DIR", "%v", err)
	}
	if *f.json {
		a.printJSON(res)
	} else {
		fmt.Fprint(a.Stdout, res.Text())
	}
	return *f.json, nil
}

func cmdUninstall(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "uninstall")
	var browsers stringList
	f.Var(&browsers, "browser", "only these browsers (repeatable)")
	udd := f.String("user-data-dir", "", "the custom profile folder install was given")
	if _, err := f.parse(argv); err != nil {
		return *f.json, err
	}
	opt, err := installOptions(browsers, *udd)
	if err != nil {
		return *f.json, err
	}
	removed, err := install.Uninstall(opt)
	var warning string
	if err != nil {
		if !errors.Is(err, install.ErrLeftAlone) {
			return *f.json, err
		}
		warning = err.Error()
	}
	if removed == nil {
		removed = []string{}
	}
	if *f.json {
		out := map[string]any{"removed": removed}
		if warning != "" {
			out["warning"] = warning
		}
		a.printJSON(out)
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

func cmdDoctor(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "doctor")
	udd := f.String("user-data-dir", "", "also check a browser started with this --user-data-dir")
	if _, err := f.parse(argv); err != nil {
		return *f.json, err
	}
	exe, err := os.Executable()
	if err != nil {
		return *f.json, err
	}
	dirs, err := statedir.Get()
	if err != nil {
		return *f.json, err
	}
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		return *f.json, err
	}
	home, _ := os.UserHomeDir()
	rep := doctor.Run(ctx, doctor.Env{
		Home: home, GOOS: runtime.GOOS, Executable: exe, StateRoot: dirs.Root, ExtensionID: id, UserDataDir: *udd,
		Probe: func(ctx context.Context) ([]protocol.HostInfo, []error) { return client.Probe(ctx, dirs.Runtime) },
	})
	if *f.json {
		a.printJSON(rep)
	} else {
		fmt.Fprint(a.Stdout, rep.Text())
	}
	if !rep.OK {
		return *f.json, errSilent
	}
	return *f.json, nil
}

// errSilent fails the command (exit 1) without printing anything more:
// the command already said what is wrong.
var errSilent = errors.New("")
