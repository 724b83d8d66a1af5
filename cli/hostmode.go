package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/host"
	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/internal/version"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/statedir"
)

// runHost is `grip chrome-extension://ID/`: how Chrome starts the host.
// stdout carries native-messaging frames only; everything else goes to
// stderr (which Chrome shows in its own log) and to the host log file.
func (a *App) runHost(ctx context.Context) int {
	dirs, err := statedir.Get()
	if err != nil {
		fmt.Fprintf(a.Stderr, "grip host: %v\n", err)
		return ExitFailed
	}
	logw := io.Writer(a.Stderr)
	if statedir.Ensure(dirs.Logs) == nil {
		if f, err := os.OpenFile(filepath.Join(dirs.Logs, "host.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			defer f.Close()
			logw = io.MultiWriter(a.Stderr, f)
		}
	}
	level := slog.LevelInfo
	debug := a.Getenv("GRIP_DEBUG") != ""
	if debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: level})).With("pid", os.Getpid())
	allowed, err := allowedExtensionIDs(a.Getenv)
	if err != nil {
		log.Error("cannot read the extension's ID", "err", err)
		return ExitFailed
	}
	// A browser grip launch started says so in its environment; one that
	// does not read well is taken as the person's own, whose rules are
	// the stricter.
	var launch *launcher.Launch
	if l, ok, err := launcher.ParseLaunch(a.Getenv(launcher.EnvLaunch)); err != nil {
		log.Error("ignoring the launch this browser's environment describes", "err", err)
	} else if ok {
		launch = &l
	}
	err = host.Run(ctx, host.Config{
		Origin: a.Args[0], AllowedIDs: allowed, Stdin: a.Stdin, Stdout: a.Stdout,
		Dirs: dirs, Version: version.String(), Log: log, DebugLogs: debug, Launch: launch,
	})
	if err != nil {
		if errors.Is(err, host.ErrOriginRefused) {
			fmt.Fprintf(a.Stderr, "grip: refusing to run for %s: %v\n", a.Args[0], err)
			return ExitUsage
		}
		log.Error("host stopped", "err", err)
		return ExitFailed
	}
	return ExitOK
}

// allowedExtensionIDs are the IDs that may start the host: the embedded
// extension's, the one `grip install --system` packed for this machine
// (named by a root-owned system receipt), plus any listed in
// GRIP_EXTENSION_IDS (comma-separated) for a build of the extension with
// another key.
func allowedExtensionIDs(getenv func(string) string) ([]string, error) {
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		return nil, err
	}
	ids := []string{id}
	if sys := install.SystemExtensionID(""); sys != "" && sys != id {
		ids = append(ids, sys)
	}
	for _, extra := range splitList(getenv("GRIP_EXTENSION_IDS")) {
		if manifest.ValidExtensionID(extra) {
			ids = append(ids, extra)
		}
	}
	return ids, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
