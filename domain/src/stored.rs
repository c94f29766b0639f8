//! Values stored as text: each type's `Display` is its stored spelling and `FromStr` reads it
//! back, so the entities hold the type and a row that reads wrong is an error, not a string
//! passed on. With the `sea-orm` feature each is a sea-orm value type (`DeriveValueType` with
//! `value_type = "String"`), stored as the same text the service always wrote.

/// Serde through the stored spelling (the entities' models derive serde).
macro_rules! serde_as_text {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use serde_as_text;

/// A stored value no version of the service wrote.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{value:?} is not a {what}")]
pub struct Unknown {
    pub what: &'static str,
    pub value: String,
}

/// A closed set of states stored by name: `as_str` is the stored text, `ALL` every variant.
macro_rules! named_states {
    ($(#[$m:meta])* $name:ident, $what:literal { $($(#[$vm:meta])* $v:ident => $s:literal,)+ }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "sea-orm", derive(sea_orm::DeriveValueType))]
        #[cfg_attr(feature = "sea-orm", sea_orm(value_type = "String"))]
        pub enum $name {
            $($(#[$vm])* $v,)+
        }

        impl $name {
            pub const ALL: &[$name] = &[$(Self::$v),+];

            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$v => $s,)+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::stored::Unknown;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($s => Ok(Self::$v),)+
                    _ => Err($crate::stored::Unknown { what: $what, value: s.to_string() }),
                }
            }
        }

        $crate::stored::serde_as_text!($name);
    };
}
pub(crate) use named_states;
