package install

import (
	"bytes"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/grip-dev/grip/crx"
	"github.com/grip-dev/grip/internal/atomicfile"
	"github.com/grip-dev/grip/manifest"
)

// SystemDir holds what `grip install --system` keeps for itself: the
// machine's signing key, the packed extension and the system receipt.
const SystemDir = "/var/lib/grip"

// Files in SystemDir.
const (
	SystemKeyFile     = "extension-key.pem" // the machine's CRX signing key, 0600
	SystemCRXFile     = "grip.crx"          // the packed extension, 0644
	SystemReceiptFile = "install.json"      // what InstallSystem wrote, 0644
)

// Kinds of files on the system receipt.
const (
	KindKey               = "key"
	KindCRX               = "crx"
	KindExternalExtension = "external_extension"
	KindHostManifest      = "host_manifest"
)

// SystemOptions say what `grip install --system` installs where. Zero
// fields take the running machine's values.
type SystemOptions struct {
	// Browsers to install for, as in Options; empty means every supported
	// browser installed on the machine (its install folder exists).
	Browsers []string
	// HostPath is the absolute path of the grip binary the manifests name.
	HostPath string
	// ExtensionFS holds the extension's files, manifest.json at the top.
	ExtensionFS fs.FS
	// Root is prepended to every system path; "" is the machine's own
	// root. Tests install into a temporary folder this way.
	Root string
	// GOOS is the operating system; only "linux" is supported.
	GOOS string
}

// SystemResult is what InstallSystem did; its JSON is `grip install
// --system --json`.
type SystemResult struct {
	// ExtensionID is the ID of the packed extension, which this machine's
	// key gives it (not the unpacked extension's fixed ID).
	ExtensionID      string `json:"extension_id"`
	ExtensionVersion string `json:"extension_version"`
	CRX              string `json:"crx"`
	HostPath         string `json:"host_path"`
	// Browsers are the browsers installed for.
	Browsers []string `json:"browsers"`
	// ExternalExtensions are the <extension-id>.json files that make each
	// browser install the CRX.
	ExternalExtensions []string `json:"external_extensions"`
	// Manifests are the system-wide host manifests.
	Manifests []string `json:"manifests"`
	Notes     []string `json:"notes,omitempty"`
}

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

// SystemPath returns p (an absolute system path) under root.
func SystemPath(root, p string) string {
	if root == "" {
		return p
	}
	return filepath.Join(root, filepath.FromSlash(p))
}

// SystemExtensionsDir returns the folder browser reads external-extension
// files from on this machine: "extensions" in the first of the browser's
// install folders that exists under root. ok is false when the browser is
// not installed there.
//
// That folder, rather than /usr/share/<brand>/extensions, because every
// Chromium reads it whatever its brand, and because Debian's chromium
// launcher passes each entry of /usr/share/chromium/extensions to
// --load-extension as an unpacked extension: a .json file there makes a
// headed Chromium open with a "Failed to load extension … Manifest file is
// missing or unreadable" dialog (seen on Debian 12's Chromium).
func SystemExtensionsDir(root, browser string) (dir string, ok bool) {
	b, known := browserTable[browser]
	if !known {
		return "", false
	}
	for _, d := range b.linuxInstallDirs {
		p := SystemPath(root, d)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return filepath.Join(p, "extensions"), true
		}
	}
	return "", false
}

// browsers returns the browsers to install for: those named, each of
// which must be installed, or else every supported one that is.
func (o *SystemOptions) browsers() ([]string, error) {
	named, err := expandBrowsers(o.Browsers)
	if err != nil {
		return nil, err
	}
	var looked []string
	for _, b := range Browsers {
		for _, d := range browserTable[b].linuxInstallDirs {
			looked = append(looked, SystemPath(o.Root, d))
		}
	}
	if len(named) == 0 {
		for _, b := range Browsers {
			if _, ok := SystemExtensionsDir(o.Root, b); ok {
				named = append(named, b)
			}
		}
		if len(named) == 0 {
			return nil, fmt.Errorf("%w installed on this machine; looked in:\n  %s", ErrNoBrowser, strings.Join(looked, "\n  "))
		}
		return named, nil
	}
	for _, b := range named {
		if _, ok := SystemExtensionsDir(o.Root, b); !ok {
			var dirs []string
			for _, d := range browserTable[b].linuxInstallDirs {
				dirs = append(dirs, SystemPath(o.Root, d))
			}
			return nil, fmt.Errorf("%w: %s is not installed here (looked in %s); a snap or flatpak browser cannot read system-wide extensions", ErrNoBrowser, DisplayName(b), strings.Join(dirs, ", "))
		}
	}
	return named, nil
}

// InstallSystem installs grip for every user of a Linux machine, without
// Developer mode: it packs the embedded extension into a CRX signed with
// this machine's key (made on first use, kept in SystemDir), lists it in
// each browser's external-extensions folder, and writes a system-wide host
// manifest that allows both the packed extension's ID and the unpacked
// one's. Running it again gives the same files; after an upgrade of grip
// the packed extension gets a higher version, which browsers install.
func InstallSystem(opt SystemOptions) (SystemResult, error) {
	if opt.GOOS == "" {
		opt.GOOS = "linux"
	}
	if opt.GOOS != "linux" {
		return SystemResult{}, fmt.Errorf("%w on %s: Chrome there installs extensions from outside the Chrome Web Store only by enterprise policy; run `grip install` and load the extension unpacked", ErrSystemUnsupported, opt.GOOS)
	}
	if err := CheckHostPath(opt.HostPath); err != nil {
		return SystemResult{}, err
	}
	if fi, err := os.Stat(opt.HostPath); err != nil || !fi.Mode().IsRegular() {
		return SystemResult{}, fmt.Errorf("%w: %s is not a file", ErrHostPathMissing, opt.HostPath)
	}
	if opt.ExtensionFS == nil {
		return SystemResult{}, fmt.Errorf("%w: no extension files", ErrBadOptions)
	}
	unpackedID, err := (&Options{ExtensionFS: opt.ExtensionFS}).extensionID()
	if err != nil {
		return SystemResult{}, err
	}
	browsers, err := opt.browsers()
	if err != nil {
		return SystemResult{}, err
	}
	dir := SystemPath(opt.Root, SystemDir)
	rec, _, err := ReadSystemReceipt(opt.Root)
	if err != nil {
		return SystemResult{}, fmt.Errorf("%w (move it aside to start afresh)", err)
	}
	w := &systemWriter{rec: &rec}
	save := func(err error) error {
		return errors.Join(err, writeSystemReceipt(opt.Root, rec))
	}
	if err := w.mkdir(dir, 0o755); err != nil {
		return SystemResult{}, save(err)
	}

	key, err := w.key(filepath.Join(dir, SystemKeyFile))
	if err != nil {
		return SystemResult{}, save(err)
	}
	packed, err := packExtension(opt.ExtensionFS, key, &rec)
	if err != nil {
		return SystemResult{}, save(err)
	}
	crxPath := filepath.Join(dir, SystemCRXFile)
	if err := w.write(crxPath, packed.crx, 0o644, KindCRX, ""); err != nil {
		return SystemResult{}, save(err)
	}
	rec.Version, rec.HostPath = 1, opt.HostPath
	res := SystemResult{
		ExtensionID: packed.id, ExtensionVersion: rec.ExtensionVersion, CRX: crxPath,
		HostPath: opt.HostPath, Browsers: browsers, ExternalExtensions: []string{}, Manifests: []string{},
	}
	if note := worldExecutableNote(opt.HostPath); note != "" {
		res.Notes = append(res.Notes, note)
	}

	external, err := json.MarshalIndent(map[string]string{"external_crx": crxPath, "external_version": rec.ExtensionVersion}, "", "  ")
	if err != nil {
		return res, save(err)
	}
	external = append(external, '\n')
	host, err := manifest.NewHost(opt.HostPath, unpackedID, packed.id)
	if err != nil {
		return res, save(err)
	}
	hostJSON, err := host.Marshal()
	if err != nil {
		return res, save(err)
	}
	for _, b := range browsers {
		extDir, _ := SystemExtensionsDir(opt.Root, b)
		if err := w.mkdir(extDir, 0o755); err != nil {
			return res, save(err)
		}
		// A listing of an earlier ID (the key was replaced) would install
		// a second copy; it goes.
		for _, f := range slices.Clone(rec.Files) {
			if f.Kind == KindExternalExtension && f.Browser == b && filepath.Dir(f.Path) == extDir && filepath.Base(f.Path) != packed.id+".json" {
				if err := w.remove(f); err != nil {
					return res, save(err)
				}
			}
		}
		extFile := filepath.Join(extDir, packed.id+".json")
		if err := w.write(extFile, external, 0o644, KindExternalExtension, b); err != nil {
			return res, save(err)
		}
		res.ExternalExtensions = append(res.ExternalExtensions, extFile)

		loc, err := Locate("linux", "", nil, b, System)
		if err != nil {
			return res, save(err)
		}
		mf := SystemPath(opt.Root, loc.File)
		if err := w.mkdir(filepath.Dir(mf), 0o755); err != nil {
			return res, save(err)
		}
		if old, err := os.ReadFile(mf); err == nil && !bytes.Equal(old, hostJSON) {
			if h, err := manifest.Parse(old); err == nil && h.Path != opt.HostPath {
				res.Notes = append(res.Notes, fmt.Sprintf("replaced %s, which started %s", mf, h.Path))
			}
		}
		if err := w.write(mf, hostJSON, 0o644, KindHostManifest, b); err != nil {
			return res, save(err)
		}
		if !slices.Contains(res.Manifests, mf) {
			res.Manifests = append(res.Manifests, mf)
		}
	}
	return res, save(nil)
}

// packedExtension is the extension packed for this machine.
type packedExtension struct {
	id  string
	crx []byte
}

// packExtension packs fsys signed with key: manifest.json gets the key's
// public half (so the manifest and the CRX name the same ID) and a version
// with a build number that rises whenever the content changes (rec holds
// the last one and is updated).
func packExtension(fsys fs.FS, key *rsa.PrivateKey, rec *SystemReceipt) (packedExtension, error) {
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return packedExtension{}, err
	}
	raw, err := fs.ReadFile(fsys, "manifest.json")
	if err != nil {
		return packedExtension{}, fmt.Errorf("%w: the extension has no manifest.json: %v", ErrBadOptions, err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return packedExtension{}, fmt.Errorf("%w: the extension's manifest.json: %v", ErrBadOptions, err)
	}
	base, _ := m["version"].(string)
	if !validVersion(base) {
		return packedExtension{}, fmt.Errorf("%w: the extension's version %q is not 1 to 4 numbers", ErrBadOptions, base)
	}
	m["key"] = base64.StdEncoding.EncodeToString(der)

	// The content under the base version decides whether this is a new
	// build.
	content, err := zipWithManifest(fsys, m)
	if err != nil {
		return packedExtension{}, err
	}
	sum := sha256.Sum256(content)
	hash := hex.EncodeToString(sum[:])
	switch {
	case rec.BaseVersion != base:
		rec.Build = 0
	case rec.ContentSHA256 != hash:
		rec.Build++
	}
	rec.BaseVersion, rec.ContentSHA256 = base, hash
	rec.ExtensionVersion = base
	if strings.Count(base, ".") < 3 {
		rec.ExtensionVersion = base + "." + strconv.Itoa(rec.Build)
	}
	m["version"] = rec.ExtensionVersion
	archive, err := zipWithManifest(fsys, m)
	if err != nil {
		return packedExtension{}, err
	}
	file, err := crx.Pack(archive, key)
	if err != nil {
		return packedExtension{}, err
	}
	rec.ExtensionID = manifest.IDFromKey(der)
	return packedExtension{id: rec.ExtensionID, crx: file}, nil
}

// zipWithManifest zips fsys with m as its manifest.json.
func zipWithManifest(fsys fs.FS, m map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "<all_urls>" stays readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return crx.Zip(fsys, map[string][]byte{"manifest.json": buf.Bytes()})
}

// validVersion reports whether v is an extension version: 1 to 4 dot
// separated integers from 0 to 65535, without leading zeros.
func validVersion(v string) bool {
	parts := strings.Split(v, ".")
	if v == "" || len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 65535 || strconv.Itoa(n) != p {
			return false
		}
	}
	return true
}

// worldExecutableNote warns when users other than root could not start
// the grip binary at p: a folder on its path or the file itself is not
// executable by others (e.g. a binary under /root).
func worldExecutableNote(p string) string {
	for d := p; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return ""
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return fmt.Sprintf("other users cannot start %s (%s is mode %v); install grip where every user can run it, e.g. sudo install -m 0755 %s /usr/local/bin/grip, and run `grip install --system` from there", p, d, fi.Mode().Perm(), p)
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
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

// SystemInstructions tells a person what each user of the machine sees
// and does after a system-wide install of extension id. What a browser
// shows was seen on Debian 12's Chromium 156, headed: the extension comes
// up switched on at the next start, with no prompt, and
// chrome://extensions lists it as "Not from Chrome Web Store" and under
// Safety Check.
func SystemInstructions(id string) string {
	return "Each user, in each browser:\n" +
		"  1. Quit the browser completely and start it again: it installs grip by itself,\n" +
		"     switched on (no Developer mode, no Load unpacked).\n" +
		"  2. chrome://extensions may list grip under Safety Check, \"Review 1 extension that may be\n" +
		"     unsafe … can't verify where this extension comes from\": click ⋮ beside grip, then\n" +
		"     \"Keep this extension\" (the bin icon would remove it). If grip's switch is off, turn it on.\n" +
		"  3. Run `grip doctor`. A user who ran `grip install` before runs it again, so that their own\n" +
		"     host manifest, which the browser reads first, also allows this extension (" + id + ").\n" +
		"Remove it all with `sudo grip uninstall --system`; browsers drop the extension at their next start.\n"
}
