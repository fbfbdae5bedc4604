/*
** Finds a function linked into the running executable by its name, in the ELF symbol
** table of /proc/self/exe: how a copy of SQLite compiled into the app under other names
** (sqlite-nio's sqlite_nio_sqlite3_*) is found without the app naming its C symbols.
** Statically linked code is not in the dynamic symbol table, so dlsym cannot see it;
** the section table still lists it unless the executable was stripped.
*/
#define _GNU_SOURCE
#include "chaos_vfs.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int main_program_base(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;  /* the first object is the program itself */
    return 1;
}

static void *find_in(const unsigned char *image, size_t length, const char *name) {
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)image;
    if (length < sizeof *header || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64) return NULL;
    if (header->e_shoff == 0 || header->e_shoff + (uint64_t)header->e_shnum * sizeof(Elf64_Shdr) > length) return NULL;
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(image + header->e_shoff);
    for (unsigned i = 0; i < header->e_shnum; i++) {
        const Elf64_Shdr *table = &sections[i];
        if (table->sh_type != SHT_SYMTAB || table->sh_link >= header->e_shnum) continue;
        const Elf64_Shdr *strings = &sections[table->sh_link];
        if (table->sh_offset + table->sh_size > length || strings->sh_offset + strings->sh_size > length) continue;
        const Elf64_Sym *symbols = (const Elf64_Sym *)(image + table->sh_offset);
        const char *names = (const char *)(image + strings->sh_offset);
        size_t count = table->sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < count; k++) {
            const Elf64_Sym *symbol = &symbols[k];
            if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_shndx == SHN_UNDEF) continue;
            if (symbol->st_name >= strings->sh_size) continue;
            const char *candidate = names + symbol->st_name;
            if (strnlen(candidate, strings->sh_size - symbol->st_name) == strings->sh_size - symbol->st_name) continue;
            if (strcmp(candidate, name) != 0) continue;
            uintptr_t base = 0;
            dl_iterate_phdr(main_program_base, &base);
            return (void *)(base + symbol->st_value);
        }
    }
    return NULL;
}

void *chaos_linked_symbol(const char *name) {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat info;
    if (fstat(fd, &info) != 0 || info.st_size <= 0) { close(fd); return NULL; }
    void *image = mmap(NULL, (size_t)info.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (image == MAP_FAILED) return NULL;
    void *found = find_in((const unsigned char *)image, (size_t)info.st_size, name);
    munmap(image, (size_t)info.st_size);
    return found;
}
