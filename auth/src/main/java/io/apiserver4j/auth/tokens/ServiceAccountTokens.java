/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import io.apiserver4j.authz.AuthenticationRequest;
import io.apiserver4j.authz.AuthenticationResult;
import io.apiserver4j.authz.Authenticator;
import io.apiserver4j.authz.NonResourceDocument;
import io.apiserver4j.core.Json;
import io.apiserver4j.storage.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * ServiceAccount tokens as kube-apiserver issues and checks them: the
 * {@code serviceaccounts/token} subresource (TokenRequest) signs RS256 JWTs with kube's claims;
 * {@link #authenticator()} accepts them as bearer tokens; TokenReview answers whether a token is
 * valid. A token stops working when its ServiceAccount or bound Pod, Secret or Node is deleted
 * or recreated, because each use reads them again from the store.
 *
 * <p>Configured like kube-apiserver's {@code --service-account-issuer},
 * {@code --service-account-signing-key-file}, {@code --service-account-key-file} and
 * {@code --api-audiences}. Immutable and thread-safe once built.
 */
public final class ServiceAccountTokens {
  /** The issuer kube's documentation and most clusters use. */
  public static final String DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";
  private static final GroupResource SERVICE_ACCOUNTS = new GroupResource("", "serviceaccounts");
  private static final GroupResource TOKEN_REVIEWS =
      new GroupResource("authentication.k8s.io", "tokenreviews");
  private static final String INVALID_BEARER_TOKEN = "invalid bearer token";
  private static final String CONFIG_PATH = "/.well-known/openid-configuration";
  private static final String JWKS_PATH = "/openid/v1/jwks";
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ServiceAccountTokens.class);

  private final List<String> issuers;
  private final List<String> apiAudiences;
  private final PrivateKey signingKey;
  private final String signingKeyId;
  private final Map<String, List<PublicKey>> keysById;
  private final List<PublicKey> keys;
  private final Clock clock;
  private final Supplier<String> ids;
  private final BoundObjects objects;
  private final TokenRequests requests;
  private final TokenVerifier verifier;

  private ServiceAccountTokens(Builder b, PrivateKey signingKey, PublicKey signingPublic,
      List<PublicKey> verification) {
    this.issuers = List.copyOf(b.issuers);
    this.apiAudiences = b.apiAudiences == null ? issuers : List.copyOf(b.apiAudiences);
    this.signingKey = signingKey;
    this.signingKeyId = Jwt.keyId(signingPublic);
    Map<String, List<PublicKey>> byId = new LinkedHashMap<>();
    for (PublicKey k : verification) {
      byId.computeIfAbsent(Jwt.keyId(k), id -> new ArrayList<>()).add(k);
    }
    byId.replaceAll((id, list) -> List.copyOf(list));
    this.keysById = Map.copyOf(byId);
    this.keys = List.copyOf(verification);
    this.clock = b.clock;
    this.ids = b.ids;
    this.objects = new BoundObjects(b.store);
    this.requests = new TokenRequests(this);
    this.verifier = new TokenVerifier(this);
  }

  /** A builder over {@code store}, where the ServiceAccounts and bound objects live. */
  public static Builder builder(Store store) {
    return new Builder(requireNonNull(store, "store"));
  }

  /** kube's service account user name: {@code system:serviceaccount:<namespace>:<name>}. */
  public static String username(String namespace, String name) {
    return "system:serviceaccount:" + namespace + ":" + name;
  }

  /** The accepted issuers; the first signs new tokens. */
  public List<String> issuers() {
    return issuers;
  }

  /** The API server's audiences: the default of a TokenRequest and of every authentication. */
  public List<String> apiAudiences() {
    return apiAudiences;
  }

  /**
   * Serves {@code serviceaccounts/token} (TokenRequest) and {@code tokenreviews} on
   * {@code server}. TokenReview also asks {@code otherTokens} (e.g. a {@code TokenFile}), as
   * kube reviews a token with every token authenticator it has.
   */
  public ApiServer.Builder install(ApiServer.Builder server, Authenticator... otherTokens) {
    List<Authenticator> others = List.of(otherTokens);
    server.subresourceCreate(SERVICE_ACCOUNTS, "token",
        call -> requests.create(call.namespace(), call.name(), call.object(), call.validation()));
    server.virtualCreate(TOKEN_REVIEWS, (user, namespace, review) -> review(namespace, review,
        others));
    return server;
  }

  /**
   * Bearer service account tokens for {@code HttpApiServer.Builder.authenticator}, beside
   * static tokens and client certificates ({@code Authenticators.firstOf}): a JWT of another
   * issuer (or no JWT) is left to the others; one of ours that fails a check is refused.
   */
  public Authenticator authenticator() {
    return request -> {
      Optional<String> token = request.bearerToken();
      if (token.isEmpty()) {
        return AuthenticationResult.noCredentials();
      }
      TokenVerifier.Outcome outcome = verifier.verify(token.get(), apiAudiences);
      if (outcome instanceof TokenVerifier.Valid v) {
        return AuthenticationResult.authenticated(v.user());
      }
      if (outcome instanceof TokenVerifier.Invalid i) {
        return AuthenticationResult.rejected(aggregate(i.reason()));
      }
      return AuthenticationResult.noCredentials();
    };
  }

  /**
   * kube's service account issuer discovery, by path, for a front end to serve (e.g.
   * {@code documents.forEach(httpBuilder::nonResourceDocument)}):
   * {@code /.well-known/openid-configuration} and {@code /openid/v1/jwks} (each also with a
   * trailing slash), with kube's content types and one hour of caching; each document is made
   * for the URI the server is reached at. As kube-apiserver, it serves nothing (an empty map)
   * when the first issuer is not an https URL without query or fragment (the OpenID discovery
   * specification requires one), and logs why.
   */
  public Map<String, Function<URI, NonResourceDocument>> discoveryDocuments() {
    String issuer = issuers.get(0);
    URI uri;
    try {
      uri = new URI(issuer);
    } catch (URISyntaxException e) {
      LOG.warn("not serving service account issuer discovery: issuer {} is not a URL", issuer);
      return Map.of();
    }
    if (!"https".equals(uri.getScheme()) || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      LOG.warn("not serving service account issuer discovery: issuer URL must use https"
          + " scheme without query or fragment, got: {}", issuer);
      return Map.of();
    }
    Map<String, String> cache = Map.of("Cache-Control", "public, max-age=3600");
    Function<URI, NonResourceDocument> config = base ->
        new NonResourceDocument("application/json", cache, Json.writeBytes(
            openIdConfiguration("https://" + base.getRawAuthority() + JWKS_PATH)));
    byte[] keySet = Json.writeBytes(jwks());
    Function<URI, NonResourceDocument> keys = base ->
        new NonResourceDocument("application/jwk-set+json", cache, keySet);
    Map<String, Function<URI, NonResourceDocument>> documents = new LinkedHashMap<>();
    documents.put(CONFIG_PATH, config);
    documents.put(CONFIG_PATH + "/", config);
    documents.put(JWKS_PATH, keys);
    documents.put(JWKS_PATH + "/", keys);
    return Collections.unmodifiableMap(documents);
  }

  /**
   * kube's OpenID discovery document ({@code /.well-known/openid-configuration}) with the
   * JWKS at {@code jwksUri}, e.g. {@code https://<server>/openid/v1/jwks}.
   */
  public MapValue openIdConfiguration(String jwksUri) {
    return MapValue.builder()
        .put("issuer", Value.of(issuers.get(0)))
        .put("jwks_uri", Value.of(jwksUri))
        .put("response_types_supported", ListValue.of(List.of(Value.of("id_token"))))
        .put("subject_types_supported", ListValue.of(List.of(Value.of("public"))))
        .put("id_token_signing_alg_values_supported", TokenRequests.strings(keys.stream()
            .map(ServiceAccountTokens::algorithm).distinct().sorted().toList()))
        .build();
  }

  /** The verification keys as a JSON Web Key Set ({@code /openid/v1/jwks}). */
  public MapValue jwks() {
    ListValue.Builder list = ListValue.builder(keys.size());
    for (PublicKey k : keys) {
      MapValue.Builder jwk = MapValue.builder().put("use", Value.of("sig"));
      if (k instanceof RSAPublicKey rsa) {
        jwk.put("kty", Value.of("RSA"))
            .put("kid", Value.of(Jwt.keyId(k)))
            .put("alg", Value.of("RS256"))
            .put("n", Value.of(unsigned(rsa.getModulus())))
            .put("e", Value.of(unsigned(rsa.getPublicExponent())));
      } else if (k instanceof ECPublicKey ec) {
        int size = (ec.getParams().getCurve().getField().getFieldSize() + 7) / 8;
        jwk.put("kty", Value.of("EC"))
            .put("kid", Value.of(Jwt.keyId(k)))
            .put("crv", Value.of("P-" + (size == 66 ? 521 : size * 8)))
            .put("alg", Value.of(algorithm(k)))
            .put("x", Value.of(fixed(ec.getW().getAffineX(), size)))
            .put("y", Value.of(fixed(ec.getW().getAffineY(), size)));
      }
      list.add(jwk.build());
    }
    return MapValue.ofEntries("keys", list.build());
  }

  // ---- package-private parts used by TokenRequests and TokenVerifier ----

  Clock clock() {
    return clock;
  }

  String newId() {
    return ids.get();
  }

  BoundObjects objects() {
    return objects;
  }

  String sign(MapValue claims) {
    return Jwt.sign(claims, signingKey, signingKeyId);
  }

  /** The keys to try for a token with key id {@code kid} (every key when it has none). */
  List<PublicKey> verificationKeys(String kid) {
    return kid.isEmpty() ? keys : keysById.getOrDefault(kid, List.of());
  }

  // ---- TokenReview ----

  private MapValue review(String namespace, MapValue review, List<Authenticator> others) {
    if (!namespace.isEmpty()) {
      throw StatusErrors.badRequest("namespace is not allowed on this type: " + namespace);
    }
    String token = Nested.str(review, "spec", "token");
    if (token.isEmpty()) {
      throw StatusErrors.badRequest("token is required for TokenReview in authentication");
    }
    List<String> requested = Meta.stringList(Nested.getOrNull(review, "spec", "audiences"));
    List<String> audiences = requested.isEmpty() ? apiAudiences : requested;

    UserInfo user = null;
    List<String> accepted = List.of();
    String error = "";
    TokenVerifier.Outcome outcome = verifier.verify(token, audiences);
    if (outcome instanceof TokenVerifier.Valid v) {
      user = v.user();
      accepted = v.audiences();
    } else if (outcome instanceof TokenVerifier.Invalid i) {
      error = aggregate(i.reason());
    } else {
      // other token authenticators do not know audiences: they answer for the API's only
      List<String> apiAccepted = apiAudiences.stream().filter(audiences::contains).toList();
      if (!apiAccepted.isEmpty() || apiAudiences.isEmpty()) {
        AuthenticationRequest fake = new AuthenticationRequest(
            Map.of("Authorization", List.of("Bearer " + token)), List.of(),
            new InetSocketAddress(0));
        for (Authenticator a : others) {
          if (a.authenticate(fake) instanceof AuthenticationResult.Authenticated ok) {
            user = ok.user();
            accepted = apiAccepted;
            break;
          }
        }
      }
      if (user == null) {
        error = INVALID_BEARER_TOKEN;
      }
    }

    MapValue.Builder status = MapValue.builder();
    if (user != null) {
      status.put("authenticated", Value.of(true));
    }
    status.put("user", user == null ? MapValue.empty() : userInfo(withAuthenticated(user)));
    if (!accepted.isEmpty()) {
      status.put("audiences", TokenRequests.strings(accepted));
    }
    if (!error.isEmpty()) {
      status.put("error", Value.of(error));
    }
    return review.with("status", status.build());
  }

  /** kube's {@code AuthenticatedGroupAdder}. */
  private static UserInfo withAuthenticated(UserInfo user) {
    if (user.name().equals("system:anonymous") || user.groups().contains("system:authenticated")
        || user.groups().contains("system:unauthenticated")) {
      return user;
    }
    List<String> groups = new ArrayList<>(user.groups());
    groups.add("system:authenticated");
    return new UserInfo(user.name(), user.uid(), groups, user.extra());
  }

  private static MapValue userInfo(UserInfo user) {
    MapValue.Builder b = MapValue.builder().put("username", Value.of(user.name()));
    if (!user.uid().isEmpty()) {
      b.put("uid", Value.of(user.uid()));
    }
    if (!user.groups().isEmpty()) {
      b.put("groups", TokenRequests.strings(user.groups()));
    }
    if (!user.extra().isEmpty()) {
      MapValue.Builder extra = MapValue.builder();
      user.extra().forEach((k, v) -> extra.put(k, TokenRequests.strings(v)));
      b.put("extra", extra.build());
    }
    return b.build();
  }

  /**
   * The error text kube's authenticator chain reports for a service account token it refused:
   * the bearer-token authenticator's own error beside the token's, as an aggregate.
   */
  private static String aggregate(String reason) {
    return reason.equals(INVALID_BEARER_TOKEN) ? reason
        : "[" + INVALID_BEARER_TOKEN + ", " + reason + "]";
  }

  private static String algorithm(PublicKey k) {
    if (k instanceof ECPublicKey ec) {
      int bits = ec.getParams().getCurve().getField().getFieldSize();
      return bits <= 256 ? "ES256" : bits <= 384 ? "ES384" : "ES512";
    }
    return "RS256";
  }

  private static String unsigned(BigInteger n) {
    byte[] b = n.toByteArray();
    int skip = b.length > 1 && b[0] == 0 ? 1 : 0;
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        java.util.Arrays.copyOfRange(b, skip, b.length));
  }

  private static String fixed(BigInteger n, int size) {
    byte[] b = n.toByteArray();
    byte[] out = new byte[size];
    int len = Math.min(b.length, size);
    System.arraycopy(b, b.length - len, out, size - len, len);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
  }

  /**
   * Configures {@link ServiceAccountTokens}. Each option may be set once; a bad or clashing
   * option fails at once naming it. Not thread-safe.
   */
  public static final class Builder {
    private final Store store;
    private List<String> issuers = List.of(DEFAULT_ISSUER);
    private boolean issuersSet;
    private List<String> apiAudiences;
    private PrivateKey signingKey;
    private final List<PublicKey> verificationKeys = new ArrayList<>();
    private Clock clock = Clock.systemUTC();
    private boolean clockSet;
    private Supplier<String> ids = () -> UUID.randomUUID().toString();
    private boolean idsSet;

    private Builder(Store store) {
      this.store = store;
    }

    /**
     * kube's {@code --service-account-issuer} (repeatable): {@code first} signs new tokens;
     * tokens of every one are accepted. Default {@value #DEFAULT_ISSUER}.
     */
    public Builder issuer(String first, String... more) {
      if (issuersSet) {
        throw new IllegalStateException("issuer was already set");
      }
      List<String> all = new ArrayList<>();
      all.add(requireNonNull(first, "first"));
      all.addAll(List.of(more));
      // kube's flag validation texts
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).isEmpty()) {
          throw new IllegalArgumentException("service-account-issuer should not be an empty"
              + " string");
        }
        if (all.subList(0, i).contains(all.get(i))) {
          throw new IllegalArgumentException("service-account-issuer \"" + all.get(i)
              + "\" is already specified");
        }
      }
      issuersSet = true;
      issuers = List.copyOf(all);
      return this;
    }

    /** kube's {@code --api-audiences}; default: the issuers. */
    public Builder apiAudiences(List<String> audiences) {
      if (apiAudiences != null) {
        throw new IllegalStateException("apiAudiences was already set");
      }
      apiAudiences = List.copyOf(requireNonNull(audiences, "audiences"));
      return this;
    }

    /**
     * kube's {@code --service-account-signing-key-file}: an RSA private key in PEM (PKCS#8 or
     * PKCS#1). Default: an RSA key generated when built (tokens then die with the server).
     */
    public Builder signingKeyFile(Path pem) {
      return signingKey(PemKeys.privateKey(read(pem), pem.toString()));
    }

    /** The RSA key that signs tokens. */
    public Builder signingKey(PrivateKey key) {
      if (signingKey != null) {
        throw new IllegalStateException("signing key was already set");
      }
      requireNonNull(key, "key");
      if (!key.getAlgorithm().equals("RSA")) {
        throw new IllegalArgumentException("the service account signing key must be an RSA key,"
            + " not " + key.getAlgorithm());
      }
      signingKey = key;
      return this;
    }

    /**
     * kube's {@code --service-account-key-file} (repeatable): PEM public keys, certificates or
     * RSA private keys that verify tokens. Default: the signing key.
     */
    public Builder verificationKeyFile(Path pem) {
      verificationKeys.addAll(PemKeys.publicKeys(read(pem), pem.toString()));
      return this;
    }

    /** A key that verifies tokens (RSA or EC). */
    public Builder verificationKey(PublicKey key) {
      verificationKeys.add(requireNonNull(key, "key"));
      return this;
    }

    /** The clock of issue and expiry; default the UTC system clock. */
    public Builder clock(Clock c) {
      if (clockSet) {
        throw new IllegalStateException("clock was already set");
      }
      clockSet = true;
      clock = requireNonNull(c, "clock");
      return this;
    }

    /** The source of token ids ({@code jti}); default random UUIDs. */
    public Builder idSource(Supplier<String> source) {
      if (idsSet) {
        throw new IllegalStateException("idSource was already set");
      }
      idsSet = true;
      ids = requireNonNull(source, "source");
      return this;
    }

    public ServiceAccountTokens build() {
      try {
        PrivateKey key = signingKey;
        PublicKey publicKey;
        if (key == null) {
          KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
          g.initialize(2048);
          java.security.KeyPair pair = g.generateKeyPair();
          key = pair.getPrivate();
          publicKey = pair.getPublic();
        } else {
          publicKey = PemKeys.publicHalf(key);
        }
        List<PublicKey> verification = verificationKeys.isEmpty() ? List.of(publicKey)
            : List.copyOf(verificationKeys);
        return new ServiceAccountTokens(this, key, publicKey, verification);
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException("unusable service account signing key: "
            + e.getMessage(), e);
      }
    }

    private static String read(Path pem) {
      try {
        return Files.readString(requireNonNull(pem, "pem"), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + pem, e);
      }
    }
  }
}
