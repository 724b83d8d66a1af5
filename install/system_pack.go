package install

import (
	"bytes"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/grip-dev/grip/crx"
	"github.com/grip-dev/grip/manifest"
)

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
	der, err := crx.PublicKeyDER(&key.PublicKey)
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
