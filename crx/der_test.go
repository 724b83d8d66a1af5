package crx

import (
	"bytes"
	"crypto/x509"
	"encoding/asn1"
	"math/big"
	"testing"
)

// The DER grip writes is byte for byte crypto/x509's, and what x509
// writes grip reads as the same key (crx/der.go).
func TestDERIsX509s(t *testing.T) {
	for _, k := range testKeys(t) {
		pub, err := PublicKeyDER(&k.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := x509.MarshalPKIXPublicKey(&k.PublicKey); !bytes.Equal(pub, want) {
			t.Errorf("PublicKeyDER differs from x509.MarshalPKIXPublicKey")
		}
		if back, err := parsePublicKeyDER(pub); err != nil || !back.Equal(&k.PublicKey) {
			t.Errorf("parsePublicKeyDER(x509's) = %v, %v", back, err)
		}
		priv, err := marshalPKCS8(k)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := x509.MarshalPKCS8PrivateKey(k); !bytes.Equal(priv, want) {
			t.Errorf("marshalPKCS8 differs from x509.MarshalPKCS8PrivateKey")
		}
		if back, err := parsePKCS8(priv); err != nil || !back.Equal(k) {
			t.Errorf("parsePKCS8(x509's) = %v, %v", back, err)
		}
		if back, err := parsePKCS1(x509.MarshalPKCS1PrivateKey(k)); err != nil || !back.Equal(k) {
			t.Errorf("parsePKCS1(x509's) = %v, %v", back, err)
		}
	}
}

// derCases are DER inputs each parser must refuse; FuzzDER starts from
// them and from good keys.
func derCases(tb testing.TB) (good, bad [][]byte) {
	k := testKeys(tb)[0]
	pub, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	priv, _ := x509.MarshalPKCS8PrivateKey(k)
	pkcs1 := x509.MarshalPKCS1PrivateKey(k)
	mustDER := func(v any) []byte {
		b, err := asn1.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	inner, _ := asn1.Marshal(pkcs1PublicKey{N: k.N, E: k.E})
	negative, _ := asn1.Marshal(pkcs1PublicKey{N: new(big.Int).Neg(k.N), E: k.E})
	// A key whose D is not the inverse of E: it parses as ASN.1 but must
	// not be taken as a key.
	wrongD := *k
	wrongD.D = new(big.Int).Add(k.D, big.NewInt(2))
	bad = [][]byte{
		nil, {0x30, 0x00}, append(append([]byte{}, pub...), 0), pub[:len(pub)-1],
		mustDER(subjectPublicKeyInfo{Algorithm: algorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 2, 3}, Parameters: asn1.NullRawValue},
			PublicKey: asn1.BitString{Bytes: inner, BitLength: 8 * len(inner)}}),
		mustDER(subjectPublicKeyInfo{Algorithm: algorithmIdentifier{Algorithm: oidRSA},
			PublicKey: asn1.BitString{Bytes: inner, BitLength: 8 * len(inner)}}),
		mustDER(subjectPublicKeyInfo{Algorithm: rsaAlgorithm(), PublicKey: asn1.BitString{Bytes: negative, BitLength: 8 * len(negative)}}),
		append(append([]byte{}, priv...), 0), priv[:len(priv)-1], pkcs1[:len(pkcs1)-1],
		mustDER(pkcs8{Algorithm: rsaAlgorithm(), PrivateKey: []byte{1, 2, 3}}),
		x509.MarshalPKCS1PrivateKey(&wrongD),
	}
	return [][]byte{pub, priv, pkcs1}, bad
}

func TestDERRefuses(t *testing.T) {
	_, bad := derCases(t)
	for i, der := range bad {
		if k, err := parsePublicKeyDER(der); err == nil {
			t.Errorf("bad[%d]: parsePublicKeyDER took it as %v", i, k)
		}
		if k, err := parsePKCS8(der); err == nil {
			t.Errorf("bad[%d]: parsePKCS8 took it as %v", i, k.N)
		}
		if k, err := parsePKCS1(der); err == nil {
			t.Errorf("bad[%d]: parsePKCS1 took it as %v", i, k.N)
		}
	}
}

// FuzzDER: grip's parsers accept no more than crypto/x509's, and what both
// accept is the same key; bad input is an error, never a panic.
func FuzzDER(f *testing.F) {
	good, bad := derCases(f)
	for _, der := range append(good, bad...) {
		f.Add(der)
	}
	f.Fuzz(func(t *testing.T, der []byte) {
		if k, err := parsePublicKeyDER(der); err == nil {
			want, xerr := x509.ParsePKIXPublicKey(der)
			if xerr != nil || !k.Equal(want) {
				t.Fatalf("parsePublicKeyDER took what x509 reads as %v, %v", want, xerr)
			}
		}
		if k, err := parsePKCS8(der); err == nil {
			want, xerr := x509.ParsePKCS8PrivateKey(der)
			if xerr != nil || !k.Equal(want) {
				t.Fatalf("parsePKCS8 took what x509 reads as %v", xerr)
			}
		}
		if k, err := parsePKCS1(der); err == nil {
			want, xerr := x509.ParsePKCS1PrivateKey(der)
			if xerr != nil || !k.Equal(want) {
				t.Fatalf("parsePKCS1 took what x509 reads as %v", xerr)
			}
		}
	})
}
