//! The server's random numbers: game ids and the seeds of games created without one, read
//! from the operating system's random source ([`yokai_septet::rng::os_seed`]), so that no page
//! can guess another page's game id from its own.

use axum::http::StatusCode;

use super::ApiError;

/// A number from the OS's random source; a 500 in the rare case it cannot be read.
fn os_u64() -> Result<u64, ApiError> {
    yokai_septet::rng::os_seed().map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the system's random source cannot be read: {e}"),
        )
    })
}

/// A seed for a game created without one.
pub fn random_seed() -> Result<u64, ApiError> {
    os_u64()
}

/// A hard-to-guess game id: 128 random bits as 32 hex digits (another page on the machine
/// cannot name a game it did not create, even where it can reach the server).
pub fn new_id() -> Result<String, ApiError> {
    Ok(format!("{:016x}{:016x}", os_u64()?, os_u64()?))
}

#[cfg(test)]
mod tests {
    use super::new_id;

    #[test]
    fn game_ids_are_32_hex_digits_and_differ() {
        let (a, b) = (new_id().unwrap(), new_id().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
        assert_ne!(a, b);
    }
}
