// Package version says which grip this is, in one string that `grip
// --version` prints and the host reports as host_version, so the two can
// be compared by eye.
//
// The release script stamps the version at link time:
//
//	go build -ldflags "-X github.com/grip-dev/grip/internal/version.stamp=v1.2.3" ./cmd/grip
//
// Without a stamp it comes from the build info Go records: the main
// module's version (Go sets it from the git tag or a pseudo-version when
// building inside a checkout) and the git revision, with "+dirty" when the
// tree had uncommitted changes.
package version

import (
	"runtime/debug"
	"strings"
)

// stamp is set by -ldflags -X; empty in ordinary builds.
var stamp string

// String returns grip's version, e.g. "v1.2.3" (stamped),
// "v0.0.0-20260130101010-abcdef012345+dirty" (a go build in a checkout),
// "v1.2.3 abcdef012345" (a go build at a tag) or "devel abcdef012345" (no
// module version, only the revision). "devel" alone means Go recorded no
// commit: built with -buildvcs=false, outside a checkout, or in a git
// worktree (Go looks for a .git folder, and a worktree's .git is a file).
func String() string {
	info, _ := debug.ReadBuildInfo()
	return fromBuild(stamp, info)
}

// fromBuild is String with its inputs given.
func fromBuild(stamp string, info *debug.BuildInfo) string {
	if stamp != "" {
		return stamp
	}
	v := ""
	var rev string
	var modified bool
	if info != nil {
		v = info.Main.Version
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if v != "" && v != "(devel)" {
		// A pseudo-version already names the revision; a tag does not,
		// and Go marks a dirty tree on the tag ("v1.2.3+dirty"), where
		// the mark belongs to the revision: "v1.2.3 abcdef012345+dirty".
		if rev != "" && !strings.Contains(v, rev) {
			base, dirty := strings.CutSuffix(v, "+dirty")
			v = base + " " + rev
			if dirty || modified {
				v += "+dirty"
			}
		}
		return v
	}
	v = "devel"
	if rev != "" {
		v += " " + rev
		if modified {
			v += "+dirty"
		}
	}
	return v
}
