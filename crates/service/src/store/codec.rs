//! The stored byte form of records: one schema-version byte, then postcard (compact serde).
//!
//! A record written by a newer schema is refused with a clear error instead of being misread.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::StoreError;

/// The schema of the records in `records.rs`. Bump it (and read the older form) when a
/// stored record changes shape.
/// Version 2 added `GameRecord::engine` as the record's last field.
pub const SCHEMA_VERSION: u8 = 2;

pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, StoreError> {
    postcard::to_extend(value, vec![SCHEMA_VERSION])
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a record: {e}")))
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, StoreError> {
    match bytes.split_first() {
        Some((&SCHEMA_VERSION, rest)) => postcard::from_bytes(rest)
            .map_err(|e| StoreError::Corrupt(format!("cannot decode a record: {e}"))),
        // Schema 1 differs only in lacking `GameRecord::engine` at the end: a trailing zero
        // byte reads as `None` there, and postcard ignores it after any other record.
        Some((1, rest)) => {
            let mut upgraded = rest.to_vec();
            upgraded.push(0);
            postcard::from_bytes(&upgraded)
                .map_err(|e| StoreError::Corrupt(format!("cannot decode a record: {e}")))
        }
        Some((version, _)) => Err(StoreError::Corrupt(format!(
            "record of schema version {version}; this bot reads version {SCHEMA_VERSION}"
        ))),
        None => Err(StoreError::Corrupt("empty record".to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_with_their_schema_version() {
        let value = (42u64, "h2e2".to_owned(), vec![1u8, 2]);
        let bytes = encode(&value).unwrap();
        assert_eq!(bytes[0], SCHEMA_VERSION);
        assert_eq!(decode::<(u64, String, Vec<u8>)>(&bytes).unwrap(), value);
    }

    #[test]
    fn schema_1_records_read_with_a_none_last_field() {
        #[derive(serde::Serialize)]
        struct Old {
            a: u64,
        }
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct New {
            a: u64,
            #[serde(default)]
            b: Option<u32>,
        }
        let mut bytes = encode(&Old { a: 5 }).unwrap();
        bytes[0] = 1;
        assert_eq!(decode::<New>(&bytes).unwrap(), New { a: 5, b: None });
        assert_eq!(decode::<u64>(&bytes).unwrap(), 5);
    }

    #[test]
    fn records_of_another_schema_are_refused() {
        let mut bytes = encode(&7u32).unwrap();
        bytes[0] = SCHEMA_VERSION + 1;
        assert!(matches!(decode::<u32>(&bytes), Err(StoreError::Corrupt(_))));
        assert!(decode::<u32>(&[]).is_err());
    }
}
