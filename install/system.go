package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
// manifest that allows only the packed extension's ID: the unpacked
// extension's ID comes from a public key, so any unpacked extension that
// copies that key would get it (a user who loads grip unpacked runs
// `grip install`, whose own manifest allows it). Running it again gives the same files; after an upgrade of grip
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
	// The extension's own manifest must read well (its key, its ID),
	// though only the packed ID is allowed below.
	if _, err := (&Options{ExtensionFS: opt.ExtensionFS}).extensionID(); err != nil {
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
	host, err := manifest.NewHost(opt.HostPath, packed.id)
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
