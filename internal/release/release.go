// Package release builds grip's release archives reproducibly: the same
// source, Go toolchain and version give the same bytes, whoever builds
// them and whenever.
//
// What varies from one build to the next is pinned:
//   - the binary: CGO_ENABLED=0 (no C toolchain), -trimpath (no build
//     paths), -buildvcs=false and -buildid= (no checkout state or build ID:
//     the version comes from the -X stamp), GOFLAGS cleared, the
//     architecture levels (GOAMD64, GOARM64) fixed;
//   - the archives: entries in one order, each with the same time (Epoch),
//     owner 0:0 with no names, mode 0755 for the binary and 0644 for the
//     rest; gzip's header carries no name and no time.
//
// SHA256SUMS lists every archive's hash in the form sha256sum -c reads.
package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// VersionVar is the variable the -X stamp sets.
const VersionVar = "github.com/grip-dev/grip/internal/version.stamp"

// SumsFile is the checksum file's name.
const SumsFile = "SHA256SUMS"

// Epoch is the time every archive entry carries: the zip format's
// earliest, which tar can hold too.
var Epoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Target is one platform to build for.
type Target struct{ GOOS, GOARCH string }

func (t Target) String() string { return t.GOOS + "/" + t.GOARCH }

// Targets are the platforms a release holds.
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"},
}

// Options say what to build.
type Options struct {
	// Version is stamped into the binary and named in the archives; it
	// may hold letters, digits and ._+- only.
	Version string
	// ModuleRoot is the folder holding grip's go.mod.
	ModuleRoot string
	// OutDir receives the archives and SHA256SUMS.
	OutDir string
	// Targets to build; nil means all of Targets.
	Targets []Target
	// Log, if set, is told what is being built.
	Log io.Writer
	// Extension, if set, is the extension's files (extension.Files): the
	// Chrome Web Store package is built from them too (WriteStorePackage).
	Extension fs.FS
}

// ErrVersion means the version cannot be stamped as it is.
var ErrVersion = errors.New("release: bad version")

// Build builds every target's archive into opt.OutDir and writes
// SHA256SUMS there; it returns the archives' paths.
func Build(ctx context.Context, opt Options) ([]string, error) {
	if err := checkVersion(opt.Version); err != nil {
		return nil, err
	}
	targets := opt.Targets
	if targets == nil {
		targets = Targets
	}
	if err := os.MkdirAll(opt.OutDir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "grip-release-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	docs, err := docFiles(opt.ModuleRoot)
	if err != nil {
		return nil, err
	}
	var archives []string
	for _, t := range targets {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "building %s\n", t)
		}
		var files []File
		for _, command := range Commands {
			bin := filepath.Join(tmp, t.GOOS+"-"+t.GOARCH, binName(t, command))
			if err := BuildBinary(ctx, opt.ModuleRoot, opt.Version, t, command, bin); err != nil {
				return nil, err
			}
			data, err := os.ReadFile(bin)
			if err != nil {
				return nil, err
			}
			files = append(files, File{Name: binName(t, command), Data: data, Mode: 0o755})
		}
		files = append(files, docs...)
		name := ArchiveName(opt.Version, t)
		var buf bytes.Buffer
		if err := WriteArchive(&buf, t, strings.TrimSuffix(strings.TrimSuffix(name, ".tar.gz"), ".zip"), files); err != nil {
			return nil, err
		}
		out := filepath.Join(opt.OutDir, name)
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			return nil, err
		}
		archives = append(archives, out)
	}
	if opt.Extension != nil {
		store, err := WriteStorePackage(opt.Extension, opt.Version, opt.OutDir)
		if err != nil {
			return nil, err
		}
		archives = append(archives, store...)
	}
	sums, err := Sums(archives)
	if err != nil {
		return nil, err
	}
	return archives, os.WriteFile(filepath.Join(opt.OutDir, SumsFile), sums, 0o644)
}

func checkVersion(v string) error {
	if v == "" {
		return fmt.Errorf("%w: empty", ErrVersion)
	}
	if strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") != "" {
		return fmt.Errorf("%w: %q: use letters, digits and ._+- only", ErrVersion, v)
	}
	return nil
}

// Commands are the binaries every archive holds, side by side: grip, which
// people and agents start, hands the host, install, mcp, demo and launch
// to grip-host beside it (docs/cli-cost.md, "The CLI's fixed cost").
var Commands = []string{"grip", "grip-host"}

func binName(t Target, command string) string {
	if t.GOOS == "windows" {
		return command + ".exe"
	}
	return command
}

// ArchiveName is the archive's file name: grip_VERSION_OS_ARCH.tar.gz, or
// .zip for Windows.
func ArchiveName(version string, t Target) string {
	ext := ".tar.gz"
	if t.GOOS == "windows" {
		ext = ".zip"
	}
	return "grip_" + version + "_" + t.GOOS + "_" + t.GOARCH + ext
}

// BuildBinary builds ./cmd/COMMAND for t into out, stamped with version.
func BuildBinary(ctx context.Context, moduleRoot, version string, t Target, command, out string) error {
	if err := checkVersion(version); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "build",
		"-trimpath", "-buildvcs=false", "-mod=readonly",
		"-ldflags", "-s -w -buildid= -X "+VersionVar+"="+version,
		"-o", out, "./cmd/"+command)
	cmd.Dir = moduleRoot
	cmd.Env = buildEnv(os.Environ(), t)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("release: go build for %s: %v\n%s", t, err, b)
	}
	return nil
}

// buildEnv is environ with the settings that change a binary pinned.
func buildEnv(environ []string, t Target) []string {
	pinned := map[string]string{
		"CGO_ENABLED": "0", "GOOS": t.GOOS, "GOARCH": t.GOARCH,
		"GOFLAGS": "", "GOAMD64": "v1", "GOARM64": "v8.0", "GOEXPERIMENT": "",
	}
	var env []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := pinned[k]; !ok {
			env = append(env, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(pinned)) {
		env = append(env, k+"="+pinned[k])
	}
	return env
}

// File is one file in an archive.
type File struct {
	Name string // slash path inside the archive's folder
	Data []byte
	Mode os.FileMode
}

// docFiles returns README.md and LICENSE (whichever exist) from dir.
func docFiles(dir string) ([]File, error) {
	var out []File
	for _, name := range []string{"LICENSE", "README.md"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: name, Data: b, Mode: 0o644})
	}
	return out, nil
}

// WriteArchive writes files under the folder dir as a tar.gz (a zip for
// Windows), entries sorted by name, every one with time Epoch and owner
// 0:0.
func WriteArchive(w io.Writer, t Target, dir string, files []File) error {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	if t.GOOS == "windows" {
		return writeZip(w, dir, files)
	}
	return writeTarGz(w, dir, files)
}

func writeTarGz(w io.Writer, dir string, files []File) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	// gzip.Header's zero Name and ModTime write none.
	tw := tar.NewWriter(gz)
	hdr := &tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: Epoch, Format: tar.FormatUSTAR}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	for _, f := range files {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg, Name: path.Join(dir, f.Name), Mode: int64(f.Mode.Perm()),
			Size: int64(len(f.Data)), ModTime: Epoch, Format: tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, dir string, files []File) error {
	zw := zip.NewWriter(w)
	for _, f := range files {
		h := &zip.FileHeader{Name: path.Join(dir, f.Name), Method: zip.Deflate, Modified: Epoch}
		h.SetMode(f.Mode.Perm())
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.Data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// Sums returns SHA256SUMS for the files: "<hex>  <base name>" lines sorted
// by name, as sha256sum writes and checks them.
func Sums(paths []string) ([]byte, error) {
	type line struct{ name, sum string }
	var lines []line
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		s := sha256.Sum256(b)
		lines = append(lines, line{filepath.Base(p), hex.EncodeToString(s[:])})
	}
	slices.SortFunc(lines, func(a, b line) int { return strings.Compare(a.name, b.name) })
	var buf bytes.Buffer
	for _, l := range lines {
		fmt.Fprintf(&buf, "%s  %s\n", l.sum, l.name)
	}
	return buf.Bytes(), nil
}
