package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

var files = []File{
	{Name: "grip", Data: []byte("\x7fELF binary"), Mode: 0o755},
	{Name: "README.md", Data: []byte("# grip\n"), Mode: 0o644},
	{Name: "LICENSE", Data: []byte("license\n"), Mode: 0o644},
}

// An archive depends on the files alone: not on their order, not on when
// it is written.
func TestWriteArchiveDeterministic(t *testing.T) {
	for _, target := range []Target{{"linux", "amd64"}, {"windows", "amd64"}} {
		t.Run(target.String(), func(t *testing.T) {
			var a, b bytes.Buffer
			if err := WriteArchive(&a, target, "grip_v1_x", files); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1100 * time.Millisecond) // a clock that leaked in would tick
			reversed := slices.Clone(files)
			slices.Reverse(reversed)
			if err := WriteArchive(&b, target, "grip_v1_x", reversed); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("the same files gave different archives")
			}
		})
	}
}

func TestTarGzHeaders(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteArchive(&buf, Target{"linux", "arm64"}, "grip_v1_linux_arm64", files); err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header carries name %q, time %v", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if !h.ModTime.Equal(Epoch) || h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" {
			t.Errorf("%s: time %v owner %d:%d %q:%q", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname, h.Gname)
		}
		want := int64(0o644)
		if h.Typeflag == tar.TypeDir || h.Name == "grip_v1_linux_arm64/grip" {
			want = 0o755
		}
		if h.Mode != want {
			t.Errorf("%s: mode %o, want %o", h.Name, h.Mode, want)
		}
	}
	want := []string{"grip_v1_linux_arm64/", "grip_v1_linux_arm64/LICENSE", "grip_v1_linux_arm64/README.md", "grip_v1_linux_arm64/grip"}
	if !slices.Equal(names, want) {
		t.Errorf("entries %q, want %q", names, want)
	}
}

func TestZipHeaders(t *testing.T) {
	var buf bytes.Buffer
	win := []File{{Name: "grip.exe", Data: []byte("MZ"), Mode: 0o755}, files[1]}
	if err := WriteArchive(&buf, Target{"windows", "amd64"}, "grip_v1_windows_amd64", win); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if !f.Modified.Equal(Epoch) {
			t.Errorf("%s: time %v", f.Name, f.Modified)
		}
	}
	if want := []string{"grip_v1_windows_amd64/README.md", "grip_v1_windows_amd64/grip.exe"}; !slices.Equal(names, want) {
		t.Errorf("entries %q, want %q", names, want)
	}
}

func TestSums(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, n := range []string{"b.zip", "a.tar.gz"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	got, err := Sums(paths)
	if err != nil {
		t.Fatal(err)
	}
	// sha256 of "a.tar.gz" and "b.zip", in name order, two spaces.
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "  a.tar.gz") || !strings.HasSuffix(lines[1], "  b.zip") || len(lines[0]) != 64+2+len("a.tar.gz") {
		t.Errorf("SHA256SUMS =\n%s", got)
	}
}

func TestCheckVersion(t *testing.T) {
	for v, ok := range map[string]bool{"v1.2.3": true, "0.1.0-rc.1+g1a2b3c": true, "": false, "v1 2": false, "v1;rm": false, "a=b": false} {
		if err := checkVersion(v); (err == nil) != ok {
			t.Errorf("checkVersion(%q) = %v", v, err)
		}
	}
	if _, err := Build(context.Background(), Options{Version: "bad version"}); !errors.Is(err, ErrVersion) {
		t.Errorf("Build with a bad version: %v", err)
	}
}

func TestBuildEnvPins(t *testing.T) {
	env := buildEnv([]string{"HOME=/h", "GOFLAGS=-buildvcs=true", "CGO_ENABLED=1", "GOAMD64=v3"}, Target{"darwin", "arm64"})
	for _, want := range []string{"HOME=/h", "GOFLAGS=", "CGO_ENABLED=0", "GOAMD64=v1", "GOOS=darwin", "GOARCH=arm64"} {
		if !slices.Contains(env, want) {
			t.Errorf("env lacks %s: %q", want, env)
		}
	}
	for _, bad := range []string{"GOFLAGS=-buildvcs=true", "CGO_ENABLED=1", "GOAMD64=v3"} {
		if slices.Contains(env, bad) {
			t.Errorf("env keeps %s", bad)
		}
	}
}

// The release pipeline end to end for one target: built twice, the same
// bytes; unpacked, the binary says the stamped version. (The second build
// reuses Go's cache of compiled packages but links again, which is where
// paths, build IDs and the stamp go in; a build with an empty GOCACHE gave
// the same binary too when this was written.)
func TestBuildReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("builds grip twice")
	}
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	const version = "v9.8.7-test"
	target := Target{"linux", "amd64"}
	build := func() (archive, sums []byte) {
		dir := t.TempDir()
		paths, err := Build(context.Background(), Options{Version: version, ModuleRoot: root, OutDir: dir, Targets: []Target{target}})
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, "grip_v9.8.7-test_linux_amd64.tar.gz"); !slices.Equal(paths, []string{want}) {
			t.Fatalf("archives %q, want %s", paths, want)
		}
		a, _ := os.ReadFile(paths[0])
		s, err := os.ReadFile(filepath.Join(dir, SumsFile))
		if err != nil {
			t.Fatal(err)
		}
		return a, s
	}
	a1, s1 := build()
	a2, s2 := build()
	if !bytes.Equal(a1, a2) || !bytes.Equal(s1, s2) {
		t.Fatal("two builds of the same source and version differ")
	}

	// Unpack it and ask the binary its version.
	dir := t.TempDir()
	gz, err := gzip.NewReader(bytes.NewReader(a1))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if h.Typeflag != tar.TypeReg {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		if err := os.WriteFile(p, b, os.FileMode(h.Mode)); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"README.md", "grip", "grip-host"} {
		if !slices.Contains(names, "grip_v9.8.7-test_linux_amd64/"+want) {
			t.Errorf("no %s in %q", want, names)
		}
	}
	if runtime.GOOS != target.GOOS || runtime.GOARCH != target.GOARCH {
		t.Skipf("cannot run a %s binary on %s/%s", target, runtime.GOOS, runtime.GOARCH)
	}
	// Both binaries, stamped alike; grip hands launch to the grip-host
	// beside it (its usage error, exit 2, is grip-host's).
	want := fmt.Sprintf("grip %s (protocol %d)\n", version, protocol.Version)
	for _, command := range Commands {
		got, err := exec.Command(filepath.Join(dir, "grip_v9.8.7-test_linux_amd64", command), "--version").Output()
		if err != nil || string(got) != want {
			t.Errorf("%s --version = %q, %v; want %q", command, got, err, want)
		}
	}
	cmd := exec.Command(filepath.Join(dir, "grip_v9.8.7-test_linux_amd64", "grip"), "launch", "a", "b")
	out, err = cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "usage: grip launch") {
		t.Errorf("grip launch a b: %v, %q; want grip-host's usage error", err, out)
	}
}
