package crx

// The DER forms of grip's RSA keys, by crypto/x509: the public key as a
// SubjectPublicKeyInfo (RFC 5280; what a CRX proof and a manifest's "key"
// carry, and what the extension ID hashes), the private key as PKCS #8
// (RFC 5208) or PKCS #1 (RFC 8017). Packing runs in grip-host (install,
// launch), whose start no agent command pays (docs/cli-cost.md, "The
// CLI's fixed cost"); a key of another type is refused, since grip signs
// with RSA alone.

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
)

// whole refuses bytes after the DER value: a key file or header field is
// one value, and x509's PKCS #8 parser would let trailing bytes by.
func whole(der []byte, what string) error {
	var v asn1.RawValue
	rest, err := asn1.Unmarshal(der, &v)
	if err != nil {
		return fmt.Errorf("not a DER %s: %v", what, err)
	}
	if len(rest) > 0 {
		return fmt.Errorf("data after the %s", what)
	}
	return nil
}

// PublicKeyDER is key as a DER SubjectPublicKeyInfo.
func PublicKeyDER(key *rsa.PublicKey) ([]byte, error) {
	if key == nil || key.N == nil {
		return nil, errors.New("no RSA public key")
	}
	return x509.MarshalPKIXPublicKey(key)
}

// parsePublicKeyDER reads a DER SubjectPublicKeyInfo holding an RSA key.
func parsePublicKeyDER(der []byte) (*rsa.PublicKey, error) {
	if err := whole(der, "public key"); err != nil {
		return nil, err
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("not a DER public key: %v", err)
	}
	pub, ok := k.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("a public key of type %T, not RSA", k)
	}
	return pub, nil
}

// marshalPKCS8 is key, of two primes, as DER PKCS #8.
func marshalPKCS8(key *rsa.PrivateKey) ([]byte, error) {
	if len(key.Primes) != 2 {
		return nil, fmt.Errorf("an RSA key of %d primes; grip's keys have two", len(key.Primes))
	}
	if err := key.Validate(); err != nil {
		return nil, err
	}
	return x509.MarshalPKCS8PrivateKey(key)
}

// parsePKCS8 reads a DER PKCS #8 private key holding an RSA key; x509
// checks it (rsa.PrivateKey.Validate) before it signs anything.
func parsePKCS8(der []byte) (*rsa.PrivateKey, error) {
	if err := whole(der, "PKCS #8 private key"); err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("not a DER PKCS #8 private key: %v", err)
	}
	key, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("a private key of type %T, not RSA", k)
	}
	return key, nil
}

// parsePKCS1 reads a DER PKCS #1 RSA private key, checked as parsePKCS8's.
func parsePKCS1(der []byte) (*rsa.PrivateKey, error) {
	if err := whole(der, "RSA private key"); err != nil {
		return nil, err
	}
	key, err := x509.ParsePKCS1PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("not a DER RSA private key: %v", err)
	}
	return key, nil
}
