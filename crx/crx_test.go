package crx

import (
	"bytes"
	"crypto/rsa"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/grip-dev/grip/manifest"
)

var (
	keyOnce sync.Once
	keys    [2]*rsa.PrivateKey
)

// testKeys returns two keys, made once per test binary (RSA key
// generation is slow).
func testKeys(tb testing.TB) [2]*rsa.PrivateKey {
	tb.Helper()
	keyOnce.Do(func() {
		for i := range keys {
			k, err := NewKey()
			if err != nil {
				tb.Fatal(err)
			}
			keys[i] = k
		}
	})
	return keys
}

var files = fstest.MapFS{
	"manifest.json": {Data: []byte(`{"manifest_version":3,"name":"t","version":"1.0"}`)},
	"b.js":          {Data: []byte("b")},
	"a/c.js":        {Data: []byte("c")},
}

func mustZip(tb testing.TB, replace map[string][]byte) []byte {
	tb.Helper()
	z, err := Zip(files, replace)
	if err != nil {
		tb.Fatal(err)
	}
	return z
}

func mustPack(tb testing.TB, archive []byte, key *rsa.PrivateKey) []byte {
	tb.Helper()
	c, err := Pack(archive, key)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func TestPackVerify(t *testing.T) {
	k := testKeys(t)[0]
	archive := mustZip(t, nil)
	c := mustPack(t, archive, k)
	f, err := Verify(c)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if want := manifest.IDFromKey(der); f.ID != want {
		t.Errorf("ID = %s, want %s", f.ID, want)
	}
	if id, _ := ID(&k.PublicKey); id != f.ID {
		t.Errorf("ID(key) = %s, Verify says %s", id, f.ID)
	}
	if !bytes.Equal(f.Archive, archive) || !bytes.Equal(f.PublicKey, der) {
		t.Error("Verify did not return the archive and key packed")
	}
	m, err := f.ReadManifest()
	if err != nil || !bytes.Equal(m, files["manifest.json"].Data) {
		t.Errorf("ReadManifest = %q, %v", m, err)
	}
	// The layout, byte by byte where it is fixed.
	if string(c[:4]) != "Cr24" || binary.LittleEndian.Uint32(c[4:]) != 3 {
		t.Errorf("starts %q", c[:8])
	}
	if n := binary.LittleEndian.Uint32(c[8:]); !bytes.Equal(c[12+n:], archive) {
		t.Error("the archive does not follow the header")
	}
}

func TestDeterministic(t *testing.T) {
	k := testKeys(t)[0]
	a1, a2 := mustZip(t, nil), mustZip(t, nil)
	if !bytes.Equal(a1, a2) {
		t.Fatal("Zip of the same files differs")
	}
	if !bytes.Equal(mustPack(t, a1, k), mustPack(t, a2, k)) {
		t.Fatal("Pack of the same archive and key differs")
	}
	if bytes.Equal(a1, mustZip(t, map[string][]byte{"b.js": []byte("B")})) {
		t.Fatal("replace changed nothing")
	}
}

// Every way a file can be wrong that Chrome checks is refused.
func TestVerifyRefuses(t *testing.T) {
	ks := testKeys(t)
	archive := mustZip(t, nil)
	good := mustPack(t, archive, ks[0])
	other := mustPack(t, archive, ks[1])
	n := binary.LittleEndian.Uint32(good[8:])

	swapKey := func() []byte {
		// The header of one key over the archive signed by another: the
		// signature no longer verifies.
		m := binary.LittleEndian.Uint32(other[8:])
		out := append([]byte{}, other[:12+m]...)
		return append(out, append([]byte("x"), archive...)...)
	}
	wrongID := func() []byte {
		// A header whose crx_id names another key, signed correctly.
		c := append([]byte{}, good...)
		i := bytes.Index(c[12:12+n], []byte{0x82, 0xf1, 0x04}) // field 10000, wire type 2
		if i < 0 {
			t.Fatal("no signed_header_data in the header")
		}
		// Flip a byte of crx_id: after the 3-byte tag, the 1-byte length,
		// SignedData's tag and crx_id's length.
		c[12+i+3+1+2] ^= 0xff
		return c
	}
	tamper := func(at int) []byte {
		c := append([]byte{}, good...)
		c[at] ^= 0x01
		return c
	}
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrFormat},
		{"magic", append([]byte("Cr25"), good[4:]...), ErrFormat},
		{"version", append(append([]byte("Cr24"), 2, 0, 0, 0), good[8:]...), ErrFormat},
		{"header too long", append(append([]byte{}, good[:8]...), append([]byte{0xff, 0xff, 0xff, 0x7f}, good[12:]...)...), ErrFormat},
		{"archive changed", tamper(len(good) - 30), ErrSignature},
		{"signature of another archive", swapKey(), ErrSignature},
		{"crx_id of another key", wrongID(), ErrSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Verify(tt.data); !errors.Is(err, tt.want) {
				t.Errorf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestKeyRoundTrip(t *testing.T) {
	k := testKeys(t)[0]
	pemKey, err := MarshalKey(k)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseKey(pemKey)
	if err != nil || !back.Equal(k) {
		t.Fatalf("ParseKey(MarshalKey(k)) = %v, %v", back, err)
	}
	pkcs1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	if back, err := ParseKey(pkcs1); err != nil || !back.Equal(k) {
		t.Errorf("ParseKey(PKCS #1) = %v, %v", back, err)
	}
	if _, err := ParseKey(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte("x")})); !errors.Is(err, ErrKey) {
		t.Errorf("a bad PKCS #1 block: %v", err)
	}
	if _, err := ParseKey([]byte("not pem")); !errors.Is(err, ErrKey) {
		t.Errorf("not PEM: %v", err)
	}
}

func FuzzVerify(f *testing.F) {
	k := testKeys(f)[0]
	f.Add(mustPack(f, mustZip(f, nil), k))
	f.Add([]byte("Cr24\x03\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Verify(data)
		if err == nil && !manifest.ValidExtensionID(file.ID) {
			t.Fatalf("Verify accepted a file with ID %q", file.ID)
		}
	})
}
