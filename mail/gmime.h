/*
 * GMime and the GLib it brings, loaded when a mail is first parsed or
 * composed (dlopen, util/dl.c), not by every start of the program.
 *
 * Private to mail/: its three files that speak GMime include this header
 * instead of <gmime/gmime.h>.  Every GMime, GObject and GLib function they
 * call, directly or through GMime's macros (GMIME_IS_PART() calls
 * g_type_check_instance_is_a() and g_mime_part_get_type()), is named in
 * MAIL_GMIME_FNS and redefined below to go through the loaded table, so the
 * code keeps GMime's own names.  A call not listed is a link error (the
 * program is not linked with GMime), a name listed twice or not declared a
 * compile error.
 *
 * The first use loads the libraries and runs g_mime_init(); a program that
 * cannot load them dies with a line naming the library (they are the
 * package's dependencies, as a linked library would be).  Thread-safe
 * (pthread_once): the first thread that needs it loads it, any other
 * waits for that.
 */
#ifndef SECTEAM_MAIL_GMIME_H
#define SECTEAM_MAIL_GMIME_H

#include <gmime/gmime.h>

#if GMIME_MAJOR_VERSION != 3
#error "GMime 3 (libgmime-3.0.so.0) is what mail/mail.c loads"
#endif
#define MAIL_GMIME_SONAME "libgmime-3.0.so.0"

/* clang-format off */
#define MAIL_GMIME_FNS(X) \
	X(g_ascii_strcasecmp) \
	X(g_ascii_strncasecmp) \
	X(g_base64_decode) \
	X(g_byte_array_append) \
	X(g_byte_array_free) \
	X(g_byte_array_new_take) \
	X(g_checksum_free) \
	X(g_checksum_get_string) \
	X(g_checksum_new) \
	X(g_checksum_update) \
	X(g_date_time_new_from_unix_utc) \
	X(g_date_time_to_unix) \
	X(g_date_time_unref) \
	X(g_free) \
	X(g_mime_content_disposition_is_attachment) \
	X(g_mime_content_type_get_mime_type) \
	X(g_mime_content_type_get_parameter) \
	X(g_mime_content_type_is_type) \
	X(g_mime_data_wrapper_new_with_stream) \
	X(g_mime_data_wrapper_write_to_stream) \
	X(g_mime_format_options_free) \
	X(g_mime_format_options_new) \
	X(g_mime_format_options_set_newline_format) \
	X(g_mime_header_get_value) \
	X(g_mime_header_list_get_header) \
	X(g_mime_iconv_close) \
	X(g_mime_iconv_open) \
	X(g_mime_init) \
	X(g_mime_message_get_cc) \
	X(g_mime_message_get_date) \
	X(g_mime_message_get_from) \
	X(g_mime_message_get_message_id) \
	X(g_mime_message_get_mime_part) \
	X(g_mime_message_get_subject) \
	X(g_mime_message_get_to) \
	X(g_mime_message_new) \
	X(g_mime_message_part_get_message) \
	X(g_mime_message_part_get_type) \
	X(g_mime_message_set_date) \
	X(g_mime_message_set_message_id) \
	X(g_mime_message_set_mime_part) \
	X(g_mime_message_set_subject) \
	X(g_mime_multipart_add) \
	X(g_mime_multipart_encrypted_new) \
	X(g_mime_multipart_get_count) \
	X(g_mime_multipart_get_part) \
	X(g_mime_multipart_get_type) \
	X(g_mime_multipart_new_with_subtype) \
	X(g_mime_multipart_set_boundary) \
	X(g_mime_multipart_signed_new) \
	X(g_mime_object_append_header) \
	X(g_mime_object_get_content_disposition) \
	X(g_mime_object_get_content_type) \
	X(g_mime_object_get_header) \
	X(g_mime_object_get_header_list) \
	X(g_mime_object_get_type) \
	X(g_mime_object_set_content_type_parameter) \
	X(g_mime_object_set_disposition) \
	X(g_mime_object_set_header) \
	X(g_mime_object_write_to_stream) \
	X(g_mime_parser_construct_message) \
	X(g_mime_parser_construct_part) \
	X(g_mime_parser_new_with_stream) \
	X(g_mime_parser_set_format) \
	X(g_mime_part_get_content) \
	X(g_mime_part_get_filename) \
	X(g_mime_part_get_type) \
	X(g_mime_part_new_with_type) \
	X(g_mime_part_set_content) \
	X(g_mime_part_set_content_encoding) \
	X(g_mime_part_set_filename) \
	X(g_mime_references_free) \
	X(g_mime_references_get_message_id) \
	X(g_mime_references_length) \
	X(g_mime_references_parse) \
	X(g_mime_stream_mem_get_byte_array) \
	X(g_mime_stream_mem_get_type) \
	X(g_mime_stream_mem_new) \
	X(g_mime_stream_mem_new_with_buffer) \
	X(g_mime_stream_mem_new_with_byte_array) \
	X(g_mime_stream_mem_set_owner) \
	X(g_mime_utils_generate_message_id) \
	X(g_object_unref) \
	X(g_type_check_instance_cast) \
	X(g_type_check_instance_is_a) \
	X(g_utf8_make_valid) \
	X(g_utf8_validate) \
	X(internet_address_get_name) \
	X(internet_address_group_get_members) \
	X(internet_address_group_get_type) \
	X(internet_address_list_append) \
	X(internet_address_list_get_address) \
	X(internet_address_list_length) \
	X(internet_address_list_parse) \
	X(internet_address_list_to_string) \
	X(internet_address_mailbox_get_addr) \
	X(internet_address_mailbox_get_type)
/* clang-format on */

struct mail_gmime {
#define MAIL_GMIME_FIELD(f) __typeof__(f) *f;
	MAIL_GMIME_FNS(MAIL_GMIME_FIELD)
#undef MAIL_GMIME_FIELD
};

/* The table, loaded (and GMime initialised) on the first call. */
const struct mail_gmime *mail_gmime(void);

#ifndef MAIL_GMIME_LOADER
/* clang-format off */
#define g_ascii_strcasecmp (mail_gmime()->g_ascii_strcasecmp)
#define g_ascii_strncasecmp (mail_gmime()->g_ascii_strncasecmp)
#define g_base64_decode (mail_gmime()->g_base64_decode)
#define g_byte_array_append (mail_gmime()->g_byte_array_append)
#define g_byte_array_free (mail_gmime()->g_byte_array_free)
#define g_byte_array_new_take (mail_gmime()->g_byte_array_new_take)
#define g_checksum_free (mail_gmime()->g_checksum_free)
#define g_checksum_get_string (mail_gmime()->g_checksum_get_string)
#define g_checksum_new (mail_gmime()->g_checksum_new)
#define g_checksum_update (mail_gmime()->g_checksum_update)
#define g_date_time_new_from_unix_utc (mail_gmime()->g_date_time_new_from_unix_utc)
#define g_date_time_to_unix (mail_gmime()->g_date_time_to_unix)
#define g_date_time_unref (mail_gmime()->g_date_time_unref)
#define g_free (mail_gmime()->g_free)
#define g_mime_content_disposition_is_attachment (mail_gmime()->g_mime_content_disposition_is_attachment)
#define g_mime_content_type_get_mime_type (mail_gmime()->g_mime_content_type_get_mime_type)
#define g_mime_content_type_get_parameter (mail_gmime()->g_mime_content_type_get_parameter)
#define g_mime_content_type_is_type (mail_gmime()->g_mime_content_type_is_type)
#define g_mime_data_wrapper_new_with_stream (mail_gmime()->g_mime_data_wrapper_new_with_stream)
#define g_mime_data_wrapper_write_to_stream (mail_gmime()->g_mime_data_wrapper_write_to_stream)
#define g_mime_format_options_free (mail_gmime()->g_mime_format_options_free)
#define g_mime_format_options_new (mail_gmime()->g_mime_format_options_new)
#define g_mime_format_options_set_newline_format (mail_gmime()->g_mime_format_options_set_newline_format)
#define g_mime_header_get_value (mail_gmime()->g_mime_header_get_value)
#define g_mime_header_list_get_header (mail_gmime()->g_mime_header_list_get_header)
#define g_mime_iconv_close (mail_gmime()->g_mime_iconv_close)
#define g_mime_iconv_open (mail_gmime()->g_mime_iconv_open)
#define g_mime_init (mail_gmime()->g_mime_init)
#define g_mime_message_get_cc (mail_gmime()->g_mime_message_get_cc)
#define g_mime_message_get_date (mail_gmime()->g_mime_message_get_date)
#define g_mime_message_get_from (mail_gmime()->g_mime_message_get_from)
#define g_mime_message_get_message_id (mail_gmime()->g_mime_message_get_message_id)
#define g_mime_message_get_mime_part (mail_gmime()->g_mime_message_get_mime_part)
#define g_mime_message_get_subject (mail_gmime()->g_mime_message_get_subject)
#define g_mime_message_get_to (mail_gmime()->g_mime_message_get_to)
#define g_mime_message_new (mail_gmime()->g_mime_message_new)
#define g_mime_message_part_get_message (mail_gmime()->g_mime_message_part_get_message)
#define g_mime_message_part_get_type (mail_gmime()->g_mime_message_part_get_type)
#define g_mime_message_set_date (mail_gmime()->g_mime_message_set_date)
#define g_mime_message_set_message_id (mail_gmime()->g_mime_message_set_message_id)
#define g_mime_message_set_mime_part (mail_gmime()->g_mime_message_set_mime_part)
#define g_mime_message_set_subject (mail_gmime()->g_mime_message_set_subject)
#define g_mime_multipart_add (mail_gmime()->g_mime_multipart_add)
#define g_mime_multipart_encrypted_new (mail_gmime()->g_mime_multipart_encrypted_new)
#define g_mime_multipart_get_count (mail_gmime()->g_mime_multipart_get_count)
#define g_mime_multipart_get_part (mail_gmime()->g_mime_multipart_get_part)
#define g_mime_multipart_get_type (mail_gmime()->g_mime_multipart_get_type)
#define g_mime_multipart_new_with_subtype (mail_gmime()->g_mime_multipart_new_with_subtype)
#define g_mime_multipart_set_boundary (mail_gmime()->g_mime_multipart_set_boundary)
#define g_mime_multipart_signed_new (mail_gmime()->g_mime_multipart_signed_new)
#define g_mime_object_append_header (mail_gmime()->g_mime_object_append_header)
#define g_mime_object_get_content_disposition (mail_gmime()->g_mime_object_get_content_disposition)
#define g_mime_object_get_content_type (mail_gmime()->g_mime_object_get_content_type)
#define g_mime_object_get_header (mail_gmime()->g_mime_object_get_header)
#define g_mime_object_get_header_list (mail_gmime()->g_mime_object_get_header_list)
#define g_mime_object_get_type (mail_gmime()->g_mime_object_get_type)
#define g_mime_object_set_content_type_parameter (mail_gmime()->g_mime_object_set_content_type_parameter)
#define g_mime_object_set_disposition (mail_gmime()->g_mime_object_set_disposition)
#define g_mime_object_set_header (mail_gmime()->g_mime_object_set_header)
#define g_mime_object_write_to_stream (mail_gmime()->g_mime_object_write_to_stream)
#define g_mime_parser_construct_message (mail_gmime()->g_mime_parser_construct_message)
#define g_mime_parser_construct_part (mail_gmime()->g_mime_parser_construct_part)
#define g_mime_parser_new_with_stream (mail_gmime()->g_mime_parser_new_with_stream)
#define g_mime_parser_set_format (mail_gmime()->g_mime_parser_set_format)
#define g_mime_part_get_content (mail_gmime()->g_mime_part_get_content)
#define g_mime_part_get_filename (mail_gmime()->g_mime_part_get_filename)
#define g_mime_part_get_type (mail_gmime()->g_mime_part_get_type)
#define g_mime_part_new_with_type (mail_gmime()->g_mime_part_new_with_type)
#define g_mime_part_set_content (mail_gmime()->g_mime_part_set_content)
#define g_mime_part_set_content_encoding (mail_gmime()->g_mime_part_set_content_encoding)
#define g_mime_part_set_filename (mail_gmime()->g_mime_part_set_filename)
#define g_mime_references_free (mail_gmime()->g_mime_references_free)
#define g_mime_references_get_message_id (mail_gmime()->g_mime_references_get_message_id)
#define g_mime_references_length (mail_gmime()->g_mime_references_length)
#define g_mime_references_parse (mail_gmime()->g_mime_references_parse)
#define g_mime_stream_mem_get_byte_array (mail_gmime()->g_mime_stream_mem_get_byte_array)
#define g_mime_stream_mem_get_type (mail_gmime()->g_mime_stream_mem_get_type)
#define g_mime_stream_mem_new (mail_gmime()->g_mime_stream_mem_new)
#define g_mime_stream_mem_new_with_buffer (mail_gmime()->g_mime_stream_mem_new_with_buffer)
#define g_mime_stream_mem_new_with_byte_array (mail_gmime()->g_mime_stream_mem_new_with_byte_array)
#define g_mime_stream_mem_set_owner (mail_gmime()->g_mime_stream_mem_set_owner)
#define g_mime_utils_generate_message_id (mail_gmime()->g_mime_utils_generate_message_id)
#define g_object_unref (mail_gmime()->g_object_unref)
#define g_type_check_instance_cast (mail_gmime()->g_type_check_instance_cast)
#define g_type_check_instance_is_a (mail_gmime()->g_type_check_instance_is_a)
#define g_utf8_make_valid (mail_gmime()->g_utf8_make_valid)
#define g_utf8_validate (mail_gmime()->g_utf8_validate)
#define internet_address_get_name (mail_gmime()->internet_address_get_name)
#define internet_address_group_get_members (mail_gmime()->internet_address_group_get_members)
#define internet_address_group_get_type (mail_gmime()->internet_address_group_get_type)
#define internet_address_list_append (mail_gmime()->internet_address_list_append)
#define internet_address_list_get_address (mail_gmime()->internet_address_list_get_address)
#define internet_address_list_length (mail_gmime()->internet_address_list_length)
#define internet_address_list_parse (mail_gmime()->internet_address_list_parse)
#define internet_address_list_to_string (mail_gmime()->internet_address_list_to_string)
#define internet_address_mailbox_get_addr (mail_gmime()->internet_address_mailbox_get_addr)
#define internet_address_mailbox_get_type (mail_gmime()->internet_address_mailbox_get_type)
/* clang-format on */
#endif

#endif
