/// The preview server behind `gallery serve`; built in this module so GalleryKit stays free of
/// server code.
public enum PreviewServer {}
