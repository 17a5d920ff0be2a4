import 'reflect-metadata';
import { KeyObject, randomUUID, webcrypto } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import { SignedXml } from 'xml-crypto';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

/** A test identity provider: its own key pair and self-signed certificate, made here. */
export interface TestIdp {
  entityId: string;
  ssoUrl: string;
  certificate: string;
  privateKey: string;
}

export async function makeIdp(entityId = `https://idp.test/${randomUUID()}`): Promise<TestIdp> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Quire test IdP',
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 365 * 86_400_000),
    signingAlgorithm: RSA,
    keys,
  });
  const privateKey = KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }).toString();
  return { entityId, ssoUrl: 'https://idp.test/sso', certificate: cert.toString('pem'), privateKey };
}

export interface ResponseOptions {
  /** Our ACS URL (Destination and Recipient) and entity id (Audience). */
  acsUrl: string;
  audience: string;
  email: string;
  name?: string;
  now?: Date;
  /** How long the assertion lives, from `now`. */
  lifetimeMs?: number;
  inResponseTo?: string;
  assertionId?: string;
  issuer?: string;
}

const iso = (d: Date) => d.toISOString();
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A SAML Response with one assertion, the assertion signed with the IdP's key (as most IdPs do). */
export function signedResponse(idp: TestIdp, o: ResponseOptions): string {
  const now = o.now ?? new Date();
  const until = new Date(now.getTime() + (o.lifetimeMs ?? 5 * 60_000));
  const assertionId = o.assertionId ?? `_a${randomUUID()}`;
  const irt = o.inResponseTo ? ` InResponseTo="${escape(o.inResponseTo)}"` : '';
  const issuer = escape(o.issuer ?? idp.entityId);
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(now)}" Destination="${escape(o.acsUrl)}"${irt}>` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escape(o.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(until)}" Recipient="${escape(o.acsUrl)}"${irt}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(new Date(now.getTime() - 1000))}" NotOnOrAfter="${iso(until)}"><saml:AudienceRestriction><saml:Audience>${escape(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (o.name
      ? `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${escape(o.name)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
      : '') +
    `</saml:Assertion></samlp:Response>`;
  const sig = new SignedXml({
    privateKey: idp.privateKey,
    publicCert: idp.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
  return sig.getSignedXml();
}

export const encodeResponse = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** The AuthnRequest XML and RelayState of an IdP redirect URL (HTTP-Redirect binding). */
export function readAuthnRequest(location: string): { xml: string; id: string; relayState: string | null; url: URL } {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
  return { xml, id, relayState: url.searchParams.get('RelayState'), url };
}

/** What the ACS answered to a form post: its status, where it sends the browser, and the token it hands out. */
export interface AcsAnswer {
  status: number;
  location: string | null;
  body: any;
  /** The API token in the redirect's fragment; null when refused. */
  token: string | null;
}

/** Posts a SAMLResponse to an ACS URL as the IdP's browser form does (HTTP-POST binding). */
export async function postToAcs(app: { fetch(request: Request): Promise<Response> }, acsURL: string, samlResponse: string): Promise<AcsAnswer> {
  const form = new URLSearchParams({ SAMLResponse: samlResponse });
  const res = await app.fetch(new Request(acsURL, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() }));
  const text = await res.text();
  const location = res.headers.get('location');
  const token = location ? new URLSearchParams(new URL(location).hash.slice(1)).get('token') : null;
  return { status: res.status, location, body: text ? JSON.parse(text) : undefined, token };
}
