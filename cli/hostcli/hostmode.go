package hostcli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/grip-dev/grip/cli"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/host"
	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/internal/version"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/statedir"
)

// runHost is `grip-host chrome-extension://ID/`: how Chrome starts the host.
// stdout carries native-messaging frames only; everything else goes to
// stderr (which Chrome shows in its own log) and to the host log file.
func runHost(ctx context.Context, a *cli.App) int {
	// The browser's stderr may be a pipe no one reads any more (a Chrome
	// started from a terminal since closed): Go kills a program whose
	// write to fd 2 meets a closed pipe, unless SIGPIPE is ignored, when
	// the write fails with EPIPE instead. The host's log then goes on in
	// its file (stderrLog), and a closed stdout is the extension gone, an
	// error the host ends on (docs/lifetime.md, "Who starts whom").
	signal.Ignore(syscall.SIGPIPE)
	dirs, err := statedir.Get()
	if err != nil {
		fmt.Fprintf(a.Stderr, "grip host: %v\n", err)
		return cli.ExitFailed
	}
	logw := io.Writer(&stderrLog{w: a.Stderr})
	if statedir.Ensure(dirs.Logs) == nil {
		if f, err := os.OpenFile(filepath.Join(dirs.Logs, "host.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			defer f.Close()
			logw = io.MultiWriter(logw, f) // stderr first: a line in the file was offered to stderr before
		}
	}
	level := slog.LevelInfo
	debug := a.Getenv("GRIP_DEBUG") != ""
	if debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: level})).With("pid", os.Getpid())
	allowed, err := allowedExtensionIDs(a.Getenv, dirs.Root)
	if err != nil {
		log.Error("cannot read the extension's ID", "err", err)
		return cli.ExitFailed
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
			return cli.ExitUsage
		}
		log.Error("host stopped", "err", err)
		return cli.ExitFailed
	}
	return cli.ExitOK
}

// stderrLog writes the host's log to the browser's stderr while it takes
// it, and drops it from the first failed write on (a closed pipe stays
// closed). It reports every write done, so the log file beside it in an
// io.MultiWriter is written whatever becomes of stderr.
type stderrLog struct {
	w      io.Writer
	failed bool // set at the first failed write; the log's handler serialises writes
}

func (s *stderrLog) Write(p []byte) (int, error) {
	if !s.failed {
		if _, err := s.w.Write(p); err != nil {
			s.failed = true
		}
	}
	return len(p), nil
}

// allowedExtensionIDs are the IDs that may start the host: the embedded
// extension's, the one `grip install --system` packed for this machine
// (named by a root-owned system receipt), those `grip install
// --extension-id` recorded in the receipt under stateRoot (the store's
// build), plus any listed in GRIP_EXTENSION_IDS (comma-separated) for a
// build of the extension with another key.
func allowedExtensionIDs(getenv func(string) string, stateRoot string) ([]string, error) {
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		return nil, err
	}
	ids := []string{id}
	if sys := install.SystemExtensionID(""); sys != "" && sys != id {
		ids = append(ids, sys)
	}
	ids = append(ids, install.AllowedExtensionIDs(stateRoot)...)
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
