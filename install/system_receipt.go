package install

import (
	"bytes"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/grip-dev/grip/crx"
	"github.com/grip-dev/grip/internal/atomicfile"
	"github.com/grip-dev/grip/manifest"
)

// SystemReceipt records what InstallSystem wrote, so UninstallSystem
// removes exactly that, doctor can check it, and the host knows the
// machine's extension ID.
type SystemReceipt struct {
	Version          int    `json:"version"`
	ExtensionID      string `json:"extension_id"`
	ExtensionVersion string `json:"extension_version"`
	// BaseVersion is the version in the extension's manifest.json; Build
	// is the number InstallSystem appends to it (0.1.0 → 0.1.0.Build),
	// raised whenever the
	// packed content changes under the same BaseVersion (ContentSHA256),
	// so that browsers see a newer version and reinstall it.
	BaseVersion   string `json:"base_version"`
	Build         int    `json:"build"`
	ContentSHA256 string `json:"content_sha256"`
	HostPath      string `json:"host_path"`
	// Files are every file written, with its content's hash: a file that
	// no longer has it was changed by someone else and is left alone.
	Files []SystemFile `json:"files"`
	// CreatedDirs are folders InstallSystem created, outermost first.
	CreatedDirs []string `json:"created_dirs,omitempty"`
	// OpenedDirs are folders that existed but that users other than root
	// could not read, which InstallSystem opened (Chromium run as root
	// makes its external-extensions folder 0700); UninstallSystem gives
	// them their old mode back.
	OpenedDirs []OpenedDir `json:"opened_dirs,omitempty"`
}

// OpenedDir is a folder whose mode InstallSystem changed from Old to New.
type OpenedDir struct {
	Path string      `json:"path"`
	Old  os.FileMode `json:"old"`
	New  os.FileMode `json:"new"`
}

// SystemFile is one file InstallSystem wrote.
type SystemFile struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	Browser string `json:"browser,omitempty"`
	SHA256  string `json:"sha256"`
}

// systemWriter writes files and folders and records them on the receipt.
type systemWriter struct {
	rec *SystemReceipt
}

// mkdir makes dir and its missing parents with mode perm (whatever the
// umask), and makes sure everyone can read and enter dir: the browser
// runs as any user.
func (w *systemWriter) mkdir(dir string, perm os.FileMode) error {
	created := missingDirs(dir)
	if err := os.MkdirAll(dir, perm); err != nil {
		return fmt.Errorf("install: create %s: %w", dir, err)
	}
	for _, d := range created {
		if err := os.Chmod(d, perm); err != nil {
			return fmt.Errorf("install: %w", err)
		}
		if !slices.Contains(w.rec.CreatedDirs, d) {
			w.rec.CreatedDirs = append(w.rec.CreatedDirs, d)
		}
	}
	if len(created) > 0 {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if old := fi.Mode().Perm(); old&0o005 != 0o005 {
		opened := old | 0o055
		if err := os.Chmod(dir, opened); err != nil {
			return fmt.Errorf("install: let every user read %s: %w", dir, err)
		}
		if !slices.ContainsFunc(w.rec.OpenedDirs, func(o OpenedDir) bool { return o.Path == dir }) {
			w.rec.OpenedDirs = append(w.rec.OpenedDirs, OpenedDir{Path: dir, Old: old, New: opened})
		}
	}
	return nil
}

// write writes data to p (unless p already holds it with mode perm) and
// records it.
func (w *systemWriter) write(p string, data []byte, perm os.FileMode, kind, browser string) error {
	old, err := os.ReadFile(p)
	fi, statErr := os.Stat(p)
	if err != nil || !bytes.Equal(old, data) || statErr != nil || fi.Mode().Perm() != perm {
		if err := atomicfile.WriteFile(p, data, perm); err != nil {
			return fmt.Errorf("install: write %s: %w", p, err)
		}
	}
	sum := sha256.Sum256(data)
	f := SystemFile{Path: p, Kind: kind, Browser: browser, SHA256: hex.EncodeToString(sum[:])}
	for i := range w.rec.Files {
		if w.rec.Files[i].Path == p {
			w.rec.Files[i] = f
			return nil
		}
	}
	w.rec.Files = append(w.rec.Files, f)
	return nil
}

// remove removes a recorded file (if unchanged) and drops it from the
// receipt.
func (w *systemWriter) remove(f SystemFile) error {
	if _, err := removeSystemFile(f); err != nil && !errors.Is(err, ErrLeftAlone) {
		return err
	}
	w.rec.Files = slices.DeleteFunc(w.rec.Files, func(g SystemFile) bool { return g.Path == f.Path })
	return nil
}

// key returns the machine's signing key at p, making and recording it the
// first time.
func (w *systemWriter) key(p string) (*rsa.PrivateKey, error) {
	if b, err := os.ReadFile(p); err == nil {
		k, err := crx.ParseKey(b)
		if err != nil {
			return nil, fmt.Errorf("install: %s: %w (move it aside to make a new one; the extension's ID changes with it)", p, err)
		}
		if err := w.write(p, b, 0o600, KindKey, ""); err != nil {
			return nil, err
		}
		return k, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	k, err := crx.NewKey()
	if err != nil {
		return nil, err
	}
	b, err := crx.MarshalKey(k)
	if err != nil {
		return nil, err
	}
	return k, w.write(p, b, 0o600, KindKey, "")
}

// ReadSystemReceipt reads the system receipt under root. A missing
// receipt is an empty one with ok false.
func ReadSystemReceipt(root string) (r SystemReceipt, ok bool, err error) {
	p := SystemPath(root, path.Join(SystemDir, SystemReceiptFile))
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return SystemReceipt{Version: 1}, false, nil
	}
	if err != nil {
		return SystemReceipt{}, false, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return SystemReceipt{}, false, fmt.Errorf("install: system receipt %s is not valid JSON: %w", p, err)
	}
	return r, true, nil
}

// writeSystemReceipt writes the receipt, readable by everyone: the host,
// started as any user, reads the extension ID from it.
func writeSystemReceipt(root string, r SystemReceipt) error {
	r.Version = 1
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	p := SystemPath(root, path.Join(SystemDir, SystemReceiptFile))
	return atomicfile.WriteFile(p, append(b, '\n'), 0o644)
}

// UninstallSystem removes what InstallSystem recorded: the external
// extension listings, the host manifests, the packed extension, the key,
// the receipt and the folders it created, if empty. A file changed since
// is left in place and reported as a *LeftAloneError joined into err.
// Browsers keep an extension they installed until they next start and
// find its listing gone; then they uninstall it.
func UninstallSystem(opt SystemOptions) (removed []string, err error) {
	if opt.GOOS == "" {
		opt.GOOS = "linux"
	}
	if opt.GOOS != "linux" {
		return nil, fmt.Errorf("%w on %s", ErrSystemUnsupported, opt.GOOS)
	}
	rec, ok, err := ReadSystemReceipt(opt.Root)
	if err != nil || !ok {
		return nil, err
	}
	var errs []error
	for _, f := range rec.Files {
		r, err := removeSystemFile(f)
		removed = append(removed, r...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	receipt := SystemPath(opt.Root, path.Join(SystemDir, SystemReceiptFile))
	if err := os.Remove(receipt); err == nil {
		removed = append(removed, receipt)
	} else if !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	for _, d := range slices.Backward(rec.CreatedDirs) {
		if os.Remove(d) == nil {
			removed = append(removed, d)
		}
	}
	for _, o := range rec.OpenedDirs {
		// Unless someone changed the mode again since.
		if fi, err := os.Stat(o.Path); err == nil && fi.Mode().Perm() == o.New {
			if err := os.Chmod(o.Path, o.Old); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return removed, errors.Join(errs...)
}

// removeSystemFile removes f unless its content changed since it was
// written.
func removeSystemFile(f SystemFile) (removed []string, err error) {
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.SHA256 {
		return nil, &LeftAloneError{Path: f.Path, Reason: "it changed since grip wrote it"}
	}
	if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return []string{f.Path}, nil
}

// SystemExtensionID returns the extension ID `grip install --system` gave
// this machine, from the system receipt under root, or "" when there is
// none or it cannot be trusted: the host allows the ID it names, so the
// receipt and its folder must belong to root and be writable by no one
// else.
func SystemExtensionID(root string) string {
	dir := SystemPath(root, SystemDir)
	p := filepath.Join(dir, SystemReceiptFile)
	for _, q := range []string{dir, p} {
		fi, err := os.Lstat(q)
		if err != nil || !ownedByAdmin(fi) || fi.Mode().Perm()&0o022 != 0 {
			return ""
		}
	}
	rec, ok, err := ReadSystemReceipt(root)
	if err != nil || !ok || !manifest.ValidExtensionID(rec.ExtensionID) {
		return ""
	}
	return rec.ExtensionID
}
