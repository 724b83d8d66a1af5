package crx

// The DER forms of grip's RSA keys: the public key as a SubjectPublicKeyInfo
// (RFC 5280; what a CRX proof and a manifest's "key" carry, and what the
// extension ID hashes), the private key as PKCS #8 (RFC 5208) around
// PKCS #1 (RFC 8017). They are written here with encoding/asn1 rather than
// by crypto/x509, which would bring every key type it knows (ECDSA,
// Ed25519 and their package init, about a tenth of each start of the one
// binary)
// into every command (docs/ARCHITECTURE.md, "The CLI's fixed cost"). The
// encodings are byte for byte x509's for an RSA key (crx/der_test.go
// checks both ways), and parsing accepts no more than x509 does.

import (
	"bytes"
	"crypto/rsa"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
)

// oidRSA is rsaEncryption (RFC 8017, A.1).
var oidRSA = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}

// algorithmIdentifier is RFC 5280's AlgorithmIdentifier; for RSA its
// parameters are NULL (RFC 3279, 2.3.1).
type algorithmIdentifier struct {
	Algorithm  asn1.ObjectIdentifier
	Parameters asn1.RawValue `asn1:"optional"`
}

type subjectPublicKeyInfo struct {
	Algorithm algorithmIdentifier
	PublicKey asn1.BitString
}

type pkcs1PublicKey struct {
	N *big.Int
	E int
}

type pkcs8 struct {
	Version    int
	Algorithm  algorithmIdentifier
	PrivateKey []byte
	// Optional attributes are not written, and not read.
}

type pkcs1PrivateKey struct {
	Version int
	N       *big.Int
	E       int
	D       *big.Int
	P       *big.Int
	Q       *big.Int
	Dp      *big.Int `asn1:"optional"`
	Dq      *big.Int `asn1:"optional"`
	Qinv    *big.Int `asn1:"optional"`
}

func rsaAlgorithm() algorithmIdentifier {
	return algorithmIdentifier{Algorithm: oidRSA, Parameters: asn1.NullRawValue}
}

// PublicKeyDER is key as a DER SubjectPublicKeyInfo.
func PublicKeyDER(key *rsa.PublicKey) ([]byte, error) {
	if key == nil || key.N == nil {
		return nil, errors.New("no RSA public key")
	}
	inner, err := asn1.Marshal(pkcs1PublicKey{N: key.N, E: key.E})
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(subjectPublicKeyInfo{
		Algorithm: rsaAlgorithm(),
		PublicKey: asn1.BitString{Bytes: inner, BitLength: 8 * len(inner)},
	})
}

// parsePublicKeyDER reads a DER SubjectPublicKeyInfo holding an RSA key.
func parsePublicKeyDER(der []byte) (*rsa.PublicKey, error) {
	var info subjectPublicKeyInfo
	rest, err := asn1.Unmarshal(der, &info)
	if err != nil {
		return nil, fmt.Errorf("not a DER public key: %v", err)
	}
	if len(rest) > 0 {
		return nil, errors.New("data after the public key")
	}
	if !info.Algorithm.Algorithm.Equal(oidRSA) {
		return nil, fmt.Errorf("a public key of algorithm %v, not RSA", info.Algorithm.Algorithm)
	}
	if !bytes.Equal(info.Algorithm.Parameters.FullBytes, asn1.NullBytes) {
		return nil, errors.New("an RSA public key without NULL parameters")
	}
	if info.PublicKey.BitLength%8 != 0 {
		return nil, errors.New("an RSA public key of a partial byte")
	}
	var pub pkcs1PublicKey
	rest, err = asn1.Unmarshal(info.PublicKey.Bytes, &pub)
	if err != nil {
		return nil, fmt.Errorf("not an RSA public key: %v", err)
	}
	if len(rest) > 0 {
		return nil, errors.New("data after the RSA public key")
	}
	if pub.N.Sign() <= 0 || pub.E <= 0 {
		return nil, errors.New("an RSA public key with a modulus or exponent that is not positive")
	}
	return &rsa.PublicKey{N: pub.N, E: pub.E}, nil
}

// marshalPKCS8 is key, of two primes, as DER PKCS #8.
func marshalPKCS8(key *rsa.PrivateKey) ([]byte, error) {
	if len(key.Primes) != 2 {
		return nil, fmt.Errorf("an RSA key of %d primes; grip's keys have two", len(key.Primes))
	}
	key.Precompute()
	if err := key.Validate(); err != nil {
		return nil, err
	}
	inner, err := asn1.Marshal(pkcs1PrivateKey{
		N: key.N, E: key.E, D: key.D, P: key.Primes[0], Q: key.Primes[1],
		Dp: key.Precomputed.Dp, Dq: key.Precomputed.Dq, Qinv: key.Precomputed.Qinv,
	})
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(pkcs8{Algorithm: rsaAlgorithm(), PrivateKey: inner})
}

// parsePKCS8 reads a DER PKCS #8 private key holding an RSA key.
func parsePKCS8(der []byte) (*rsa.PrivateKey, error) {
	var p pkcs8
	rest, err := asn1.Unmarshal(der, &p)
	if err != nil {
		return nil, fmt.Errorf("not a DER PKCS #8 private key: %v", err)
	}
	if len(rest) > 0 {
		return nil, errors.New("data after the PKCS #8 private key")
	}
	if !p.Algorithm.Algorithm.Equal(oidRSA) {
		return nil, fmt.Errorf("a private key of algorithm %v, not RSA", p.Algorithm.Algorithm)
	}
	return parsePKCS1(p.PrivateKey)
}

// parsePKCS1 reads a DER PKCS #1 RSA private key of two primes, and
// checks it (rsa.PrivateKey.Validate) before it signs anything.
func parsePKCS1(der []byte) (*rsa.PrivateKey, error) {
	var p pkcs1PrivateKey
	rest, err := asn1.Unmarshal(der, &p)
	if err != nil {
		return nil, fmt.Errorf("not a DER RSA private key: %v", err)
	}
	if len(rest) > 0 {
		return nil, errors.New("data after the RSA private key")
	}
	if p.Version != 0 {
		return nil, fmt.Errorf("an RSA private key of version %d; grip reads two-prime keys (version 0)", p.Version)
	}
	for _, n := range []*big.Int{p.N, p.D, p.P, p.Q} {
		if n.Sign() <= 0 {
			return nil, errors.New("an RSA private key with a value that is not positive")
		}
	}
	for _, n := range []*big.Int{p.Dp, p.Dq, p.Qinv} {
		if n != nil && n.Sign() <= 0 {
			return nil, errors.New("an RSA private key with a value that is not positive")
		}
	}
	key := &rsa.PrivateKey{
		PublicKey: rsa.PublicKey{N: p.N, E: p.E},
		D:         p.D,
		Primes:    []*big.Int{p.P, p.Q},
	}
	key.Precomputed.Dp, key.Precomputed.Dq, key.Precomputed.Qinv = p.Dp, p.Dq, p.Qinv
	key.Precompute()
	if err := key.Validate(); err != nil {
		return nil, err
	}
	return key, nil
}
