// Package crx packs a Chrome extension into a CRX3 file, the signed
// archive Chrome installs without Developer mode (as an external
// extension on Linux), and checks one.
//
// A CRX3 file is, in order: the magic "Cr24"; the format version 3 as a
// little-endian uint32; the header's length N, likewise; N bytes of
// header, a protobuf CrxFileHeader; then the zip archive. The header holds
// one proof per signing key (sha256_with_rsa, field 2: an
// AsymmetricKeyProof with the DER SubjectPublicKeyInfo in field 1 and the
// signature in field 2) and signed_header_data (field 10000): a SignedData
// message whose field 1, crx_id, is the first 16 bytes of the SHA-256 of
// the public key — the extension ID before it is written with the letters
// a-p. Every proof signs, with RSASSA-PKCS1-v1_5 over SHA-256, the bytes
// "CRX3 SignedData\x00", the length of signed_header_data as a
// little-endian uint32, signed_header_data itself, and the archive.
// (Chromium's components/crx_file/crx3.proto and crx_verifier.cc.)
//
// Only the few protobuf fields above are written and read, by hand: a
// protobuf library would be the largest dependency in the module for
// four fields.
package crx

import (
	"archive/zip"
	"bytes"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"time"

	"github.com/grip-dev/grip/manifest"
)

const (
	magic   = "Cr24"
	version = 3
	// maxHeader bounds the header Verify accepts; Chromium's own limit is
	// far larger, but a header of grip's is under 2 KiB.
	maxHeader = 1 << 20

	// Field numbers of crx3.proto.
	fieldRSAProof         = 2     // CrxFileHeader.sha256_with_rsa
	fieldSignedHeaderData = 10000 // CrxFileHeader.signed_header_data
	fieldPublicKey        = 1     // AsymmetricKeyProof.public_key
	fieldSignature        = 2     // AsymmetricKeyProof.signature
	fieldCrxID            = 1     // SignedData.crx_id
)

// signatureContext starts the bytes every proof signs.
var signatureContext = []byte("CRX3 SignedData\x00")

// zipTime is the modification time of every archive entry, so the same
// files always give the same archive (1980-01-01, the zip epoch).
var zipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Zip returns a zip archive of the regular files in fsys, in sorted order,
// deflated, each with the same fixed time and mode: the same files give
// the same bytes. replace maps slash paths to content that stands in for
// the file's own (e.g. a rewritten manifest.json); it may be nil.
func Zip(fsys fs.FS, replace map[string][]byte) ([]byte, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		data, ok := replace[name]
		if !ok {
			if data, err = fs.ReadFile(fsys, name); err != nil {
				return nil, err
			}
		}
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: zipTime}
		h.SetMode(0o644)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Pack returns a CRX3 file holding archive (a zip, see Zip), signed with
// key. RSA PKCS#1 v1.5 signatures are deterministic, so the same archive
// and key always give the same file.
func Pack(archive []byte, key *rsa.PrivateKey) ([]byte, error) {
	pub, err := PublicKeyDER(&key.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("crx: encode public key: %w", err)
	}
	id := sha256.Sum256(pub)
	signedHeader := appendBytesField(nil, fieldCrxID, id[:16])
	sig, err := rsa.SignPKCS1v15(nil, key, crypto.SHA256, signedDigest(signedHeader, archive))
	if err != nil {
		return nil, fmt.Errorf("crx: sign: %w", err)
	}
	proof := appendBytesField(nil, fieldPublicKey, pub)
	proof = appendBytesField(proof, fieldSignature, sig)
	header := appendBytesField(nil, fieldRSAProof, proof)
	header = appendBytesField(header, fieldSignedHeaderData, signedHeader)

	out := make([]byte, 0, 12+len(header)+len(archive))
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint32(out, version)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(header)))
	out = append(out, header...)
	return append(out, archive...), nil
}

// signedDigest is the SHA-256 of what every proof signs.
func signedDigest(signedHeader, archive []byte) []byte {
	h := sha256.New()
	h.Write(signatureContext)
	h.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(signedHeader))))
	h.Write(signedHeader)
	h.Write(archive)
	return h.Sum(nil)
}

// ID returns the extension ID Chrome gives a CRX signed with key.
func ID(key *rsa.PublicKey) (string, error) {
	der, err := PublicKeyDER(key)
	if err != nil {
		return "", fmt.Errorf("crx: encode public key: %w", err)
	}
	return manifest.IDFromKey(der), nil
}

// File is a checked CRX3 file.
type File struct {
	// ID is the extension ID its crx_id declares, written a-p.
	ID string
	// PublicKey is the DER key whose hash is the ID.
	PublicKey []byte
	// Archive is the zip after the header.
	Archive []byte
}

// Verify checks data the way Chrome does before installing it: the magic
// and version, every RSA proof's signature, and that the declared crx_id
// is the hash of one of the signing keys. ECDSA proofs, which grip never
// writes, make it fail rather than go unchecked.
func Verify(data []byte) (File, error) {
	if len(data) < 12 || string(data[:4]) != magic {
		return File{}, fmt.Errorf("%w: no Cr24 magic", ErrFormat)
	}
	if v := binary.LittleEndian.Uint32(data[4:8]); v != version {
		return File{}, fmt.Errorf("%w: version %d, want %d", ErrFormat, v, version)
	}
	n := binary.LittleEndian.Uint32(data[8:12])
	if n > maxHeader || uint64(n) > uint64(len(data)-12) {
		return File{}, fmt.Errorf("%w: header length %d does not fit the file", ErrFormat, n)
	}
	header, archive := data[12:12+n], data[12+n:]

	var proofs [][]byte
	var signedHeader []byte
	err := eachField(header, func(num int, val []byte) error {
		switch num {
		case fieldRSAProof:
			proofs = append(proofs, val)
		case 3: // sha256_with_ecdsa
			return fmt.Errorf("%w: ECDSA proofs are not supported", ErrFormat)
		case fieldSignedHeaderData:
			signedHeader = val
		}
		return nil
	})
	if err != nil {
		return File{}, err
	}
	var crxID []byte
	if err := eachField(signedHeader, func(num int, val []byte) error {
		if num == fieldCrxID {
			crxID = val
		}
		return nil
	}); err != nil {
		return File{}, err
	}
	if len(crxID) != 16 {
		return File{}, fmt.Errorf("%w: crx_id is %d bytes, want 16", ErrFormat, len(crxID))
	}
	if len(proofs) == 0 {
		return File{}, fmt.Errorf("%w: no RSA proof", ErrSignature)
	}
	digest := signedDigest(signedHeader, archive)
	var f File
	for _, p := range proofs {
		var pub, sig []byte
		if err := eachField(p, func(num int, val []byte) error {
			switch num {
			case fieldPublicKey:
				pub = val
			case fieldSignature:
				sig = val
			}
			return nil
		}); err != nil {
			return File{}, err
		}
		rk, err := parsePublicKeyDER(pub)
		if err != nil {
			return File{}, fmt.Errorf("%w: public key: %v", ErrSignature, err)
		}
		if err := rsa.VerifyPKCS1v15(rk, crypto.SHA256, digest, sig); err != nil {
			return File{}, fmt.Errorf("%w: %v", ErrSignature, err)
		}
		if sum := sha256.Sum256(pub); bytes.Equal(sum[:16], crxID) {
			f.PublicKey = pub
		}
	}
	if f.PublicKey == nil {
		return File{}, fmt.Errorf("%w: crx_id matches none of the signing keys", ErrSignature)
	}
	f.ID = manifest.IDFromKey(f.PublicKey)
	f.Archive = archive
	return f, nil
}

// ReadManifest returns manifest.json from a CRX's archive.
func (f File) ReadManifest() ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(f.Archive), int64(len(f.Archive)))
	if err != nil {
		return nil, fmt.Errorf("%w: archive: %v", ErrFormat, err)
	}
	r, err := zr.Open("manifest.json")
	if err != nil {
		return nil, fmt.Errorf("%w: archive: %v", ErrFormat, err)
	}
	defer r.Close()
	return io.ReadAll(r)
}

// appendBytesField appends a length-delimited protobuf field.
func appendBytesField(b []byte, num int, val []byte) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(val)))
	return append(b, val...)
}

// eachField calls fn for every length-delimited field of the protobuf
// message msg, skipping fields of the other wire types.
func eachField(msg []byte, fn func(num int, val []byte) error) error {
	for len(msg) > 0 {
		tag, n := binary.Uvarint(msg)
		if n <= 0 {
			return fmt.Errorf("%w: bad protobuf tag", ErrFormat)
		}
		msg = msg[n:]
		num, wire := int(tag>>3), tag&7
		switch wire {
		case 0: // varint
			if _, n = binary.Uvarint(msg); n <= 0 {
				return fmt.Errorf("%w: bad protobuf varint", ErrFormat)
			}
			msg = msg[n:]
		case 1, 5: // fixed64, fixed32
			size := 8
			if wire == 5 {
				size = 4
			}
			if len(msg) < size {
				return fmt.Errorf("%w: truncated protobuf field", ErrFormat)
			}
			msg = msg[size:]
		case 2:
			l, n := binary.Uvarint(msg)
			if n <= 0 || l > uint64(len(msg)-n) {
				return fmt.Errorf("%w: truncated protobuf field", ErrFormat)
			}
			val := msg[n : n+int(l)]
			msg = msg[n+int(l):]
			if err := fn(num, val); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%w: protobuf wire type %d", ErrFormat, wire)
		}
	}
	return nil
}
