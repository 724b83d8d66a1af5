package release

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grip-dev/grip/extension"
)

// The store's zip holds the extension's files with manifest.json's
// development key removed (the store signs with its own and refuses a
// package with one) and nothing else changed; two builds are the same
// bytes.
func TestStoreZipHasNoDevelopmentKey(t *testing.T) {
	data, perms, err := StoreZip(extension.Files())
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, ".go") || strings.HasPrefix(f.Name, "/") || strings.Contains(f.Name, "..") {
			t.Errorf("zip holds %s", f.Name)
		}
		if f.Name != "manifest.json" {
			continue
		}
		r, _ := f.Open()
		b, _ := io.ReadAll(r)
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
	}
	if m == nil {
		t.Fatal("no manifest.json at the zip's top")
	}
	if _, ok := m["key"]; ok {
		t.Error("the store's manifest.json still has the development key")
	}
	if m["name"] != "grip" || m["manifest_version"] != float64(3) {
		t.Errorf("manifest = %v", m)
	}
	if len(perms) == 0 {
		t.Error("no permissions read")
	}
	again, _, _ := StoreZip(extension.Files())
	if !bytes.Equal(again, data) {
		t.Error("two store zips differ")
	}
}

// The listing justifies every permission the manifest asks for, and one
// the table does not know is refused rather than left unexplained; the
// privacy statement says nothing leaves the machine.
func TestStoreListingJustifiesEveryPermission(t *testing.T) {
	_, perms, err := StoreZip(extension.Files())
	if err != nil {
		t.Fatal(err)
	}
	text, err := StoreListing("1.2.3", perms)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range perms {
		if !strings.Contains(text, "- **"+p+"**: ") {
			t.Errorf("listing does not justify %s", p)
		}
	}
	if !strings.Contains(text, "nothing leaves your computer") || !strings.Contains(text, "--extension-id") {
		t.Errorf("listing:\n%s", text)
	}
	if _, err := StoreListing("1.2.3", append(perms, "history")); err == nil || !strings.Contains(err.Error(), `"history"`) {
		t.Errorf("an unexplained permission: %v", err)
	}
}

func TestWriteStorePackage(t *testing.T) {
	dir := t.TempDir()
	paths, err := WriteStorePackage(extension.Files(), "1.2.3", dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "grip-1.2.3-chrome-web-store.zip"), filepath.Join(dir, "grip-1.2.3-chrome-web-store.md")}
	if len(paths) != 2 || paths[0] != want[0] || paths[1] != want[1] {
		t.Fatalf("paths = %v, want %v", paths, want)
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := WriteStorePackage(extension.Files(), "1.2/3", dir); err == nil {
		t.Error("a version with a slash was accepted")
	}
}
