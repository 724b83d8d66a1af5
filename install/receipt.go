package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/grip-dev/grip/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/grip-dev/grip/manifest"
)

// ReceiptFile is the receipt's name in the state root.
const ReceiptFile = "install.json"

// Receipt records what Install wrote, so Uninstall removes exactly that and
// doctor knows which manifests grip put where.
type Receipt struct {
	Version      int    `json:"version"`
	ExtensionID  string `json:"extension_id"`
	ExtensionDir string `json:"extension_dir"`
	// ExtraExtensionIDs are the IDs `grip install --extension-id` added to
	// the manifests; the host serves them too (AllowedExtensionIDs).
	ExtraExtensionIDs []string `json:"extra_extension_ids,omitempty"`
	// ExtensionFiles are slash paths relative to ExtensionDir.
	ExtensionFiles []string         `json:"extension_files"`
	Manifests      []ManifestRecord `json:"manifests"`
	// CreatedDirs are folders Install created for manifests, outermost
	// first; Uninstall removes those that are empty again.
	CreatedDirs []string `json:"created_dirs,omitempty"`
}

// ManifestRecord is one manifest Install wrote.
type ManifestRecord struct {
	Location
	// HostPath is the grip binary the manifest pointed at when written; a
	// manifest that now points elsewhere was changed by someone else.
	HostPath string `json:"host_path"`
}

// ReadReceipt reads the receipt under stateRoot. A missing receipt is an
// empty one with ok false.
func ReadReceipt(stateRoot string) (r Receipt, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(stateRoot, ReceiptFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Receipt{Version: 1}, false, nil
	}
	if err != nil {
		return Receipt{}, false, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return Receipt{}, false, fmt.Errorf("install: receipt %s is not valid JSON: %w", filepath.Join(stateRoot, ReceiptFile), err)
	}
	return r, true, nil
}

func writeReceipt(stateRoot string, r Receipt) error {
	if err := os.MkdirAll(stateRoot, 0o700); err != nil {
		return err
	}
	r.Version = 1
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(stateRoot, ReceiptFile), append(b, '\n'), 0o600)
}

// addManifest records m, replacing an earlier record of the same file.
func (r *Receipt) addManifest(m ManifestRecord) {
	for i := range r.Manifests {
		if r.Manifests[i].File == m.File {
			r.Manifests[i] = m
			return
		}
	}
	r.Manifests = append(r.Manifests, m)
}

func (r *Receipt) addDirs(dirs []string) {
	for _, d := range dirs {
		if !slices.Contains(r.CreatedDirs, d) {
			r.CreatedDirs = append(r.CreatedDirs, d)
		}
	}
}

// AllowedExtensionIDs returns the IDs `grip install --extension-id` added,
// read from the receipt under stateRoot (the user's own state folder, which
// only the user can write): a host Chrome starts learns from it that it
// may serve the store's build of grip. Invalid entries are dropped.
func AllowedExtensionIDs(stateRoot string) []string {
	rec, ok, err := ReadReceipt(stateRoot)
	if err != nil || !ok {
		return nil
	}
	var out []string
	for _, id := range rec.ExtraExtensionIDs {
		if manifest.ValidExtensionID(id) {
			out = append(out, id)
		}
	}
	return out
}
