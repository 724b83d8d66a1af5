package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/grip-dev/grip/manifest"
)

// Uninstall removes what Install recorded in the receipt and returns the
// paths (and registry keys) it removed. A manifest someone changed since
// (it no longer starts the grip Install wrote) is left in place and
// reported as a *LeftAloneError, joined into err; errors.Is(err,
// ErrLeftAlone) tells that warning from a failure.
//
// With Browsers or UserDataDir set only those manifests go and any others
// stay on the receipt; once no manifest stays, everything goes, the
// extension folder and the receipt included. Without a receipt it removes the user-level manifests
// that start opt.HostPath, and the extension files that opt.ExtensionFS
// names.
func Uninstall(opt Options) (removed []string, err error) {
	if err := opt.fill(); err != nil {
		return nil, err
	}
	browsers, err := expandBrowsers(opt.Browsers)
	if err != nil {
		return nil, err
	}
	var custom string
	if opt.UserDataDir != "" {
		if loc, err := LocateUserDataDir(opt.GOOS, opt.UserDataDir); err == nil {
			custom = loc.File
		}
	}
	partial := len(browsers) > 0 || opt.UserDataDir != ""

	rec, ok, err := ReadReceipt(opt.StateRoot)
	if err != nil {
		return nil, err
	}
	if !ok {
		rec = guessReceipt(opt)
	}

	// Manifests of browsers not named stay; when none stay, everything goes.
	var errs []error
	var kept, gone []ManifestRecord
	for _, m := range rec.Manifests {
		if partial && !slices.Contains(browsers, m.Browser) && m.File != custom {
			kept = append(kept, m)
		} else {
			gone = append(gone, m)
		}
	}
	all := len(kept) == 0
	for _, m := range gone {
		r, err := removeManifest(m)
		removed = append(removed, r...)
		if err != nil {
			errs = append(errs, err)
		}
	}

	if all && rec.ExtensionDir != "" {
		_, statErr := os.Lstat(rec.ExtensionDir)
		existed := statErr == nil
		for _, f := range rec.ExtensionFiles {
			p := filepath.Join(rec.ExtensionDir, filepath.FromSlash(f))
			if err := os.Remove(p); err == nil {
				removed = append(removed, p)
			} else if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		pruneEmpty(rec.ExtensionDir)
		// Only a folder that was there was removed (a second uninstall
		// removes nothing).
		if _, err := os.Lstat(rec.ExtensionDir); existed && errors.Is(err, fs.ErrNotExist) {
			removed = append(removed, rec.ExtensionDir)
		}
	}

	// Folders Install created, if nothing else lives in them now.
	var dirs []string
	for _, d := range slices.Backward(rec.CreatedDirs) {
		if os.Remove(d) == nil {
			removed = append(removed, d)
		} else if _, err := os.Lstat(d); err == nil {
			dirs = append(dirs, d)
		}
	}
	slices.Reverse(dirs)

	receiptPath := filepath.Join(opt.StateRoot, ReceiptFile)
	switch {
	case !all:
		rec.Manifests, rec.CreatedDirs = kept, dirs
		if err := writeReceipt(opt.StateRoot, rec); err != nil {
			errs = append(errs, err)
		}
	case ok:
		if err := os.Remove(receiptPath); err == nil {
			removed = append(removed, receiptPath)
		} else if !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return removed, errors.Join(errs...)
}

// removeManifest removes one recorded manifest and its registry key, unless
// they were changed since Install wrote them.
func removeManifest(m ManifestRecord) (removed []string, err error) {
	data, rerr := os.ReadFile(m.File)
	switch {
	case errors.Is(rerr, fs.ErrNotExist):
		// Already gone.
	case rerr != nil:
		return nil, rerr
	default:
		h, perr := manifest.Parse(data)
		switch {
		case perr != nil:
			err = &LeftAloneError{Path: m.File, Reason: "it is no longer a host manifest grip wrote (" + perr.Error() + ")"}
		case h.Name != manifest.HostName:
			err = &LeftAloneError{Path: m.File, Reason: fmt.Sprintf("it now names host %q", h.Name)}
		case h.Path != m.HostPath:
			err = &LeftAloneError{Path: m.File, Reason: fmt.Sprintf("it now starts %s, not the grip install wrote (%s)", h.Path, m.HostPath)}
		default:
			if err := os.Remove(m.File); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			removed = append(removed, m.File)
		}
	}
	if m.RegistryKey != "" {
		v, ok, rerr := registryDefault(m.RegistryRoot, m.RegistryKey)
		switch {
		case rerr != nil:
			err = errors.Join(err, rerr)
		case ok && v != m.File:
			err = errors.Join(err, &LeftAloneError{Path: m.Registry(), Reason: "it now names " + v})
		case ok:
			if derr := deleteRegistryKey(m.RegistryRoot, m.RegistryKey); derr != nil {
				err = errors.Join(err, derr)
			} else {
				removed = append(removed, m.Registry())
			}
		}
	}
	return removed, err
}

// guessReceipt stands in for a lost receipt: the user-level manifests
// (and the custom one) that start opt.HostPath, and the extension files
// opt.ExtensionFS names.
func guessReceipt(opt Options) Receipt {
	var rec Receipt
	var locs []Location
	for _, b := range Browsers {
		if loc, err := Locate(opt.GOOS, opt.Home, opt.Getenv, b, User); err == nil {
			locs = append(locs, loc)
		}
	}
	if opt.UserDataDir != "" {
		if loc, err := LocateUserDataDir(opt.GOOS, opt.UserDataDir); err == nil {
			locs = append(locs, loc)
		}
	}
	if opt.HostPath != "" {
		for _, loc := range locs {
			data, err := os.ReadFile(loc.File)
			if err != nil {
				continue
			}
			if h, err := manifest.Parse(data); err == nil && h.Name == manifest.HostName && h.Path == opt.HostPath {
				rec.Manifests = append(rec.Manifests, ManifestRecord{Location: loc, HostPath: opt.HostPath})
			}
		}
	}
	if opt.ExtensionFS != nil {
		rec.ExtensionDir = filepath.Join(opt.DataDir, ExtensionDirName)
		_ = fs.WalkDir(opt.ExtensionFS, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				rec.ExtensionFiles = append(rec.ExtensionFiles, p)
			}
			return nil
		})
	}
	return rec
}

// pruneEmpty removes dir and the folders under it that are empty, deepest
// first; folders that still hold something stay.
func pruneEmpty(dir string) {
	var dirs []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for _, d := range slices.Backward(dirs) {
		_ = os.Remove(d)
	}
}
