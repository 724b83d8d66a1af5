package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuild(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	settings := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name  string
		stamp string
		info  *debug.BuildInfo
		want  string
	}{
		{"stamp wins", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: settings("true")}, "v1.2.3"},
		{"no build info", "", nil, "devel"},
		{"devel, no vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"devel, clean", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("false")}, "devel 0123456789ab"},
		{"devel, dirty", "", &debug.BuildInfo{Main: debug.Module{Version: ""}, Settings: settings("true")}, "devel 0123456789ab+dirty"},
		{"pseudo-version names the revision", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20260130101010-0123456789ab+dirty"}, Settings: settings("true")}, "v0.0.0-20260130101010-0123456789ab+dirty"},
		{"tag", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}, Settings: settings("false")}, "v1.0.0 0123456789ab"},
		{"tag, dirty", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0+dirty"}, Settings: settings("true")}, "v1.0.0 0123456789ab+dirty"},
		{"module from the proxy", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}}, "v1.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fromBuild(tt.stamp, tt.info); got != tt.want {
				t.Errorf("fromBuild = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStringNotEmpty(t *testing.T) {
	if String() == "" {
		t.Fatal("String is empty")
	}
}
