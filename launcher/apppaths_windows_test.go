package launcher

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/grip-dev/grip/internal/wintest"
	"golang.org/x/sys/windows/registry"
)

// A Chrome installed where the person chose (here under a folder with a
// space) is found through the App Paths key its installer writes, before
// the fixed install folders. It writes HKCU, so it runs only under Wine.
func TestWindowsAppPaths(t *testing.T) {
	if !wintest.Wine() {
		t.Skip("writes HKCU\\" + appPathsKey + "chrome.exe: run under Wine (scripts/test-windows), not in a person's own registry")
	}
	exe := filepath.Join(wintest.TempDir(t), "My Apps", "Chrome", "chrome.exe")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, []byte("MZ"), 0o755); err != nil {
		t.Fatal(err)
	}
	k, _, err := registry.CreateKey(registry.CURRENT_USER, appPathsKey+"chrome.exe", registry.SET_VALUE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = registry.DeleteKey(registry.CURRENT_USER, appPathsKey+"chrome.exe") })
	if err := k.SetStringValue("", `"`+exe+`"`); err != nil {
		t.Fatal(err)
	}
	k.Close()
	got := registeredLocations()
	if len(got) == 0 || got[0] != exe {
		t.Fatalf("registeredLocations = %q, want %s first", got, exe)
	}
	f := defaultFinder()
	if !slices.Contains(f.locations, exe) || slices.Index(f.locations, exe) != 0 {
		t.Errorf("Find's locations = %q, want %s first", f.locations, exe)
	}
}
