//! The headers a POST mirrors from its JSON-RPC body (MCP 2026-07-28, SEP-2243), so that
//! proxies can route and limit MCP traffic without reading bodies: `Mcp-Method` (the method)
//! and `Mcp-Name` (`params.name` of `tools/call` and `prompts/get`, `params.uri` of
//! `resources/read`). A value may be sent as `=?base64?…?=`. A request that says it speaks
//! 2026-07-28 (`MCP-Protocol-Version`) must carry them; older clients may leave them out, but
//! a header that is sent must match the body whatever the version. A failure is JSON-RPC error
//! -32020 with HTTP 400. `Mcp-Param-*` headers mirror arguments whose schema carries
//! `x-mcp-header`; no tool here marks one, so they are not read. Pure.

use base64::Engine;
use serde_json::Value;

use super::protocol::MODERN_VERSION;

/// MCP's code for headers that are missing or do not match the body.
pub const HEADER_MISMATCH: i64 = -32020;

pub const METHOD: &str = "mcp-method";
pub const NAME: &str = "mcp-name";
pub const VERSION: &str = "mcp-protocol-version";

const BASE64_PREFIX: &str = "=?base64?";
const BASE64_SUFFIX: &str = "?=";

/// The request's mirrored headers, as sent (`Err` when a value is not text).
pub struct Mirrored<'h> {
    pub version: Option<&'h str>,
    pub method: Option<&'h str>,
    pub name: Option<&'h str>,
}

/// Whether `message`'s mirrored headers hold: `Err` says what does not.
pub fn check(h: &Mirrored<'_>, message: &Value) -> Result<(), String> {
    let strict = h.version.map(str::trim) == Some(MODERN_VERSION);
    let body_method = message.get("method").and_then(Value::as_str);
    match (decoded(METHOD, h.method)?, body_method) {
        (None, _) if strict => {
            return Err(format!(
                "the Mcp-Method header is required by {MODERN_VERSION}"
            ));
        }
        (Some(sent), Some(body)) if sent != body => {
            return Err(format!(
                "the Mcp-Method header {sent:?} does not match the body's method {body:?}"
            ));
        }
        (Some(sent), None) => {
            return Err(format!(
                "the Mcp-Method header {sent:?} is sent with a body that has no method"
            ));
        }
        _ => {}
    }
    let body_name = body_method
        .and_then(name_field)
        .and_then(|f| message.get("params")?.get(f)?.as_str());
    match (decoded(NAME, h.name)?, body_name) {
        (None, Some(_)) if strict => Err(format!(
            "the Mcp-Name header is required for {} by {MODERN_VERSION}",
            body_method.unwrap_or_default()
        )),
        (Some(sent), Some(body)) if sent != body => Err(format!(
            "the Mcp-Name header {sent:?} does not match the body's {body:?}"
        )),
        (Some(sent), None) => Err(format!(
            "the Mcp-Name header {sent:?} is sent with a body that names nothing"
        )),
        _ => Ok(()),
    }
}

/// The field of `params` that `Mcp-Name` mirrors for `method`.
fn name_field(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

/// A header's value, its `=?base64?…?=` form decoded.
fn decoded(header: &str, raw: Option<&str>) -> Result<Option<String>, String> {
    let Some(v) = raw.map(str::trim) else {
        return Ok(None);
    };
    let Some(inner) = v
        .strip_prefix(BASE64_PREFIX)
        .and_then(|r| r.strip_suffix(BASE64_SUFFIX))
    else {
        return Ok(Some(v.to_string()));
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(inner)
        .map_err(|e| format!("the {header} header's Base64 value cannot be read: {e}"))?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| format!("the {header} header's Base64 value is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn h<'a>(
        version: Option<&'a str>,
        method: Option<&'a str>,
        name: Option<&'a str>,
    ) -> Mirrored<'a> {
        Mirrored {
            version,
            method,
            name,
        }
    }

    const MODERN: Option<&str> = Some(MODERN_VERSION);

    #[test]
    fn matching_headers_pass_in_either_form() {
        let call =
            json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_journal"}});
        assert_eq!(
            check(&h(MODERN, Some("tools/call"), Some("read_journal")), &call),
            Ok(())
        );
        let b64 = "=?base64?cmVhZF9qb3VybmFs?=";
        assert_eq!(
            check(&h(MODERN, Some("tools/call"), Some(b64)), &call),
            Ok(())
        );
        let read = json!({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"journal://a"}});
        assert_eq!(
            check(
                &h(MODERN, Some("resources/read"), Some("journal://a")),
                &read
            ),
            Ok(())
        );
        let list = json!({"jsonrpc":"2.0","id":1,"method":"tools/list"});
        assert_eq!(check(&h(MODERN, Some("tools/list"), None), &list), Ok(()));
    }

    #[test]
    fn a_modern_request_must_carry_them_an_older_one_may_not() {
        let call =
            json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_entry"}});
        let e = check(&h(MODERN, None, None), &call).unwrap_err();
        assert!(e.contains("Mcp-Method header is required"), "{e}");
        let e = check(&h(MODERN, Some("tools/call"), None), &call).unwrap_err();
        assert!(e.contains("Mcp-Name header is required"), "{e}");
        assert_eq!(check(&h(Some("2025-11-25"), None, None), &call), Ok(()));
        assert_eq!(check(&h(None, None, None), &call), Ok(()));
    }

    #[test]
    fn a_header_that_says_otherwise_than_the_body_is_refused_in_any_version() {
        let call =
            json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_entry"}});
        for version in [MODERN, None] {
            let e = check(&h(version, Some("tools/list"), None), &call).unwrap_err();
            assert!(e.contains("does not match the body's method"), "{e}");
            let e =
                check(&h(version, Some("tools/call"), Some("read_journal")), &call).unwrap_err();
            assert!(e.contains("does not match the body's"), "{e}");
        }
        let list = json!({"jsonrpc":"2.0","id":1,"method":"tools/list"});
        let e = check(&h(None, Some("tools/list"), Some("x")), &list).unwrap_err();
        assert!(e.contains("names nothing"), "{e}");
        let response = json!({"jsonrpc":"2.0","id":1,"result":{}});
        let e = check(&h(None, Some("ping"), None), &response).unwrap_err();
        assert!(e.contains("no method"), "{e}");
        let e = check(&h(None, Some("=?base64?%%%?="), None), &list).unwrap_err();
        assert!(e.contains("Base64"), "{e}");
    }
}
