//! Reading a file a caller names (a model, a record): a regular file only, of at most a
//! cap, looked at before it is opened and opened without waiting. A named pipe (whose
//! reader waits for a writer), a device (`/dev/zero` never ends) or a folder is refused
//! without being read, and so is a file over the cap, each with the rule that refused it.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// Why [`read_regular`] read nothing.
#[derive(Debug)]
pub enum FileError {
    /// The system could not open or read it.
    Io(std::io::Error),
    /// It is not a regular file: what it is instead ("a named pipe", "a device", …).
    NotAFile(&'static str),
    /// It has more bytes than the cap.
    TooLarge {
        /// Its size.
        bytes: u64,
        /// The cap.
        cap: u64,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => e.fmt(f),
            FileError::NotAFile(kind) => write!(f, "it is {kind}, not a regular file"),
            FileError::TooLarge { bytes, cap } => write!(
                f,
                "it has {bytes} bytes, over the cap of {} MiB on such a file",
                cap >> 20
            ),
        }
    }
}

/// The bytes of the regular file at `path`, at most `cap` of them.
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, FileError> {
    let checked = |meta: std::fs::Metadata| {
        if !meta.is_file() {
            return Err(FileError::NotAFile(kind(&meta.file_type())));
        }
        if meta.len() > cap {
            return Err(FileError::TooLarge {
                bytes: meta.len(),
                cap,
            });
        }
        Ok(meta.len())
    };
    // Looked at before it is opened: opening a named pipe waits for a writer.
    checked(std::fs::metadata(path).map_err(FileError::Io)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // And opened without waiting, in case the path was swapped for a pipe meanwhile.
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(FileError::Io)?;
    let len = checked(file.metadata().map_err(FileError::Io)?)?;
    let mut bytes = Vec::with_capacity(len as usize);
    // A file that grows while it is read stops at the cap.
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(FileError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(FileError::TooLarge {
            bytes: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

/// What a path that is not a regular file is, in words.
fn kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_under_the_cap_is_read() {
        let dir = std::env::temp_dir().join(format!("ys-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(read_regular(&file, 5).unwrap(), b"12345");
        let e = read_regular(&file, 4).unwrap_err().to_string();
        assert!(e.contains("5 bytes"), "{e}");
        let e = read_regular(&dir, 10).unwrap_err().to_string();
        assert_eq!(e, "it is a folder, not a regular file");
        #[cfg(unix)]
        {
            let e = read_regular(Path::new("/dev/zero"), 10).unwrap_err();
            assert_eq!(e.to_string(), "it is a device, not a regular file");
        }
        assert!(matches!(
            read_regular(&dir.join("none"), 10),
            Err(FileError::Io(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
