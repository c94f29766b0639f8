// figment's Jail closures return its (large) error type by design.
#![allow(clippy::result_large_err)]

use super::*;

/// The settings from the defaults and the environment variables with `prefix`.
fn env(prefix: &str) -> Result<Settings, ConfigError> {
    Settings::load_from(None, Env::prefixed(prefix).split("__"))
}

/// Loading with `prefix` fails with an error that says `says`.
fn refused(prefix: &str, says: &str) {
    let err = env(prefix).unwrap_err();
    assert!(err.to_string().contains(says), "{err}");
}

#[test]
fn an_origin_on_port_zero_takes_the_bound_port() {
    assert_eq!(
        origin_on_port("http://127.0.0.1:0", 40123),
        "http://127.0.0.1:40123"
    );
    assert_eq!(
        origin_on_port("http://localhost:0/", 7),
        "http://localhost:7"
    );
    assert_eq!(
        origin_on_port("https://journals.example", 7),
        "https://journals.example"
    );
    assert_eq!(origin_on_port("http://h:8080", 7), "http://h:8080");
}

#[test]
fn defaults_parse() {
    let s = env("JM_TEST_NONE__").unwrap();
    assert_eq!(s.server.listen, "127.0.0.1:8080");
    assert_eq!(s.server.api_prefix, "/api");
    assert_eq!(s.database.url.expose(), "sqlite://data/journal-market.db");
    assert_eq!(s.chain.chain_id, 4663);
    assert_eq!(s.metrics.listen, "", "no metrics listener unless asked for");
}

#[test]
fn env_overrides_file() {
    figment::Jail::expect_with(|jail| {
        jail.create_file("c.toml", "[server]\nlisten = \"0.0.0.0:1\"\n")?;
        jail.set_env("JMX__SERVER__LISTEN", "127.0.0.1:9");
        let s = Settings::load_from(
            Some(Path::new("c.toml")),
            Env::prefixed("JMX__").split("__"),
        )
        .unwrap();
        assert_eq!(s.server.listen, "127.0.0.1:9");
        Ok(())
    });
}

#[test]
fn the_pool_size_defaults_by_backend_and_can_be_set() {
    let mut s = env("JM_TEST_NONE__").unwrap();
    assert_eq!(s.database.max_connections, None);
    assert_eq!(s.database.pool_size(), 4, "SQLite: one writer at a time");
    s.database.url = Secret::new("postgres://u@h/db");
    assert_eq!(s.database.pool_size(), 16);
    figment::Jail::expect_with(|jail| {
        jail.set_env("JMP__DATABASE__MAX_CONNECTIONS", "9");
        let s = env("JMP__").unwrap();
        assert_eq!(s.database.pool_size(), 9);
        jail.set_env("JMP__DATABASE__MAX_CONNECTIONS", "0");
        refused("JMP__", "max_connections");
        Ok(())
    });
}

#[test]
fn secrets_are_redacted_in_debug() {
    let s = env("JM_TEST_NONE__").unwrap();
    let mut s = s;
    s.database.url = Secret::new("postgres://u:hunter2@h/db");
    assert!(!format!("{s:?}").contains("hunter2"));
}

#[test]
fn the_cookie_prefix_defaults_to_host_on_https_and_to_none_on_http() {
    let mut s = env("JM_TEST_NONE__").unwrap();
    assert_eq!(s.auth.cookie_prefix, "");
    assert_eq!(
        s.cookie_name(),
        "svc_session",
        "the dev run on http://127.0.0.1"
    );
    s.server.origin = "https://journals.example".into();
    assert_eq!(s.cookie_name(), "__Host-svc_session");
    s.auth.cookie_prefix = "__Host-jm_".into();
    assert_eq!(s.cookie_name(), "__Host-jm_svc_session");
    s.validate().unwrap();
    figment::Jail::expect_with(|jail| {
        jail.set_env("JMC__SERVER__ORIGIN", "https://journals.example");
        let s = env("JMC__").unwrap();
        assert_eq!(s.cookie_name(), "__Host-svc_session");
        Ok(())
    });
}

#[test]
fn cookie_prefixes_that_cannot_work_are_refused() {
    let https = "https://journals.example";
    let http = "http://127.0.0.1:8080";
    for ok in ["", "__Host-", "__Host-jm_"] {
        check_cookie_prefix(ok, https).unwrap();
    }
    for ok in ["", "dev8081_"] {
        check_cookie_prefix(ok, http).unwrap();
    }
    // https: anything but __Host- lets a sibling subdomain plant a session.
    for weak in ["__Secure-", "jm_", "__host-"] {
        let e = check_cookie_prefix(weak, https).unwrap_err();
        assert!(e.contains("sibling subdomain"), "{e}");
    }
    // http: the cookie cannot be Secure, so browsers would drop it.
    for impossible in ["__Host-", "__Secure-", "__secure-x", "__HOST-"] {
        let e = check_cookie_prefix(impossible, http).unwrap_err();
        assert!(e.contains("cannot work"), "{e}");
    }
    let e = check_cookie_prefix("a;b", http).unwrap_err();
    assert!(e.contains("not a cookie name"), "{e}");
    // At load: a clear refusal naming the key.
    figment::Jail::expect_with(|jail| {
        jail.set_env("JMK__AUTH__COOKIE_PREFIX", "__Host-");
        refused("JMK__", "auth.cookie_prefix");
        jail.set_env("JMK__SERVER__ORIGIN", "https://journals.example");
        jail.set_env("JMK__AUTH__COOKIE_PREFIX", "__Secure-");
        refused("JMK__", "__Host-");
        Ok(())
    });
}

#[test]
fn the_limits_store_is_checked_at_load() {
    let mut s = env("JM_TEST_NONE__").unwrap();
    assert_eq!(
        s.limits.store.expose(),
        "",
        "in memory unless a store is named"
    );
    s.limits.store = Secret::new("redis://127.0.0.1:6379");
    s.validate().unwrap();
    s.limits.store = Secret::new("rediss://h:6380");
    assert!(s.validate().unwrap_err().to_string().contains("TLS"));
    s.limits.store = Secret::new("redis://h");
    s.limits.store_prefix = " ".into();
    assert!(
        s.validate()
            .unwrap_err()
            .to_string()
            .contains("store_prefix")
    );
    s.limits.store_prefix = "jm".into();
    s.limits.store_timeout_ms = 0;
    assert!(
        s.validate()
            .unwrap_err()
            .to_string()
            .contains("store_timeout_ms")
    );
}

#[test]
fn bad_prefix_is_rejected() {
    figment::Jail::expect_with(|jail| {
        jail.set_env("JMY__SERVER__API_PREFIX", "api/");
        refused("JMY__", "api_prefix");
        Ok(())
    });
}

#[test]
fn addresses_and_keys_are_parsed_once_when_read() {
    figment::Jail::expect_with(|jail| {
        let key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
        jail.set_env("JMA__PAYMENTS__RELAYER_KEY", key);
        jail.set_env(
            "JMA__PAYMENTS__BUYBACK_WALLET",
            "0x5FBDB2315678AFECB367F032D93F642F64180AA3",
        );
        jail.set_env("JMA__CHAIN__TOKEN", "");
        let s = env("JMA__").unwrap();
        let relayer = s.payments.relayer_key.signer().unwrap().address();
        assert_eq!(
            relayer.to_checksum(None),
            "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
        );
        // Any case reads; an empty setting is none; a key never reaches a log.
        assert_eq!(
            s.payments.buyback_wallet.map(|a| a.to_checksum(None)),
            Some("0x5FbDB2315678afecb367f032d93F642f64180aa3".to_string())
        );
        assert_eq!(s.chain.token, None);
        assert!(s.payments.receipt_key.signer().is_none());
        assert_eq!(format!("{:?}", s.payments.relayer_key), "[redacted]");
        assert!(!format!("{s:?}").contains(&key[2..]));
        Ok(())
    });
}

#[test]
fn a_bad_address_or_key_stops_the_start_naming_its_setting() {
    figment::Jail::expect_with(|jail| {
        jail.set_env("JMB__PAYMENTS__BUYBACK_WALLET", "0x1234");
        refused("JMB__", "payments.buyback_wallet");
        refused("JMB__", "\"0x1234\" is not an address");
        Ok(())
    });
    figment::Jail::expect_with(|jail| {
        jail.set_env("JMC__PAYMENTS__RELAYER_KEY", "0xnot-a-key");
        refused("JMC__", "payments.relayer_key");
        refused("JMC__", "is not a valid private key");
        Ok(())
    });
    figment::Jail::expect_with(|jail| {
        jail.set_env("JMD__PAYMENTS__SPONSOR__KEY", "12");
        refused("JMD__", "payments.sponsor.key");
        Ok(())
    });
    figment::Jail::expect_with(|jail| {
        jail.set_env("JME__CHAIN__USDG", "");
        refused("JME__", "chain.usdg");
        refused("JME__", "must be an address, not empty");
        Ok(())
    });
    figment::Jail::expect_with(|jail| {
        jail.create_file(
            "c.toml",
            "[chain.stock_tokens.NVDA]\ntoken = \"0x01\"\nprice_feed = \"0x01\"\n",
        )?;
        let err = Settings::load_from(Some(Path::new("c.toml")), Env::prefixed("JMF__"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("chain.stock_tokens.NVDA."), "{err}");
        assert!(err.contains("\"0x01\" is not an address"), "{err}");
        Ok(())
    });
}
